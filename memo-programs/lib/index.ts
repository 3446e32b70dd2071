// Pure helpers a memo program may import from 'automemo/lib' (bundled into the program's isolate).
export { tokenize, contentTokens, ENGLISH_STOPWORDS, type TokenizeOptions } from './tokenize.ts';
export { Bm25Index, type Bm25Options, type Bm25Hit } from './bm25.ts';
export { jaccard } from './jaccard.ts';
export { jaro, jaroWinkler, type JaroWinklerOptions } from './jaro-winkler.ts';
export { dot, norm, cosine, normalize, centroid } from './cosine.ts';
export { mmr, type MmrCandidate } from './mmr.ts';
