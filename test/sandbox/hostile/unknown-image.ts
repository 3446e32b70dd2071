// hostile: return an image id the host never issued (a path, say) hoping the host reads it
// expect: payload-schema /"\/etc\/passwd" is not an image the host knows/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {},
  retrieve() {
    return { text: '', images: [{ id: '/etc/passwd', mime: 'image/png' }] };
  },
});
