// hostile: throw an Error whose message getter throws (once reported as a failure "at the boundary")
// expect: update /update\(\) threw Error: \(its message could not be read: the getter threw\)/
import { defineMemo } from 'automemo/contract';

class Sneaky extends Error {
  override get message(): string {
    throw new Error('no message for you');
  }
}

export default defineMemo({
  update() {
    throw new Sneaky();
  },
  retrieve: () => ({ text: '', images: [] }),
});
