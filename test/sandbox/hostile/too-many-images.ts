// hostile: return more images than the budget allows
// expect: payload-budget /6 images; the budget is 2/
import { defineMemo, type ImageRef } from 'automemo/contract';

const seen: ImageRef[] = [];
export default defineMemo({
  update(episode) {
    for (const img of episode.initial.images ?? []) seen.push(img);
  },
  retrieve() {
    const img = seen[0];
    return { text: '', images: img ? [img, img, img, img, img, img] : [] };
  },
});
