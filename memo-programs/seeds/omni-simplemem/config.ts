// Omni-SimpleMem settings. `code` follows the released implementation (aiming-lab/SimpleMem @ db80b6a, as read in
// ../shared/notes/omni-simplemem.md); `paper` switches on the parameters that appear only in the paper text
// (similarity gate 0.4, 6,000-token budget, greedy similarity-per-token expansion, graph distance decay 0.7,
// Jaro-Winkler/cosine entity merging). `config` is the live profile; the search edits its constants.

export interface OmniConfig {
  profile: 'code' | 'paper';
  /** The LoCoMo runner passes force=True, skipping the text novelty gate; kept as the default. */
  forceText: boolean;
  /**
   * A past task's first unit (its instruction and outcome) also carries the outcome's note — the checker's feedback,
   * such as "please write dates as DD.MM.YYYY" — which the released code never stores. Off: as released.
   */
  notes: boolean;
  minTextChars: number;
  maxTextChars: number;
  /** Text novelty: Jaccard over whitespace tokens against the last `noveltyWindow` texts. */
  jaccardReject: number;
  jaccardUncertain: number;
  noveltyWindow: number;
  /** The released code compares against history texts cut to 200 characters (known bug #8); 0 = compare whole texts. */
  noveltyHistoryChars: number;
  /** Image novelty against the last accepted image: cosine of image embeddings, or perceptual-hash similarity. */
  imageReject: number;
  imageAccept: number;
  imageSimilarity: 'embedding' | 'phash';
  /** Texts up to this long are their own summary. */
  summaryChars: number;
  /** Dialogue ingestion with a memo model: turns per extraction window (the LoCoMo runner uses 40). */
  extractionWindow: number;
  topK: number;
  topKEvidence: number;
  topKTemporal: number;
  /** Dense hits below this cosine are dropped (code 0.0, paper 0.4). */
  similarityThreshold: number;
  /** BM25-only hits are appended with score × bm25Weight; k_b = max(bm25MinK, topK / 2). */
  bm25Weight: number;
  bm25MinK: number;
  /** Items scoring above this are expanded to details (at most maxExpanded). */
  autoExpandThreshold: number;
  maxExpanded: number;
  /** rank: take items in rank order while they fit (code); greedy: by similarity per character (paper). */
  expansion: 'rank' | 'greedy';
  /** Token budget for the pyramid (paper: 6,000); null = the payload budget the host gives. */
  tokenBudget: number | null;
  graph: {
    enabled: boolean;
    maxSeeds: number;
    maxHops: number;
    maxNeighbors: number;
    /** The released code drops graph output; merging it into the results is this port's fix. */
    mergeIntoResults: boolean;
    /** At most this many memory units are added from the graph. */
    maxUnits: number;
    /** null: sort by hop count (code); a number: score decay^hop (paper 0.7). */
    decay: number | null;
    /** Merge entities whose names are this similar (Jaro-Winkler; paper 0.85); null: exact name and aliases only. */
    mergeThreshold: number | null;
  };
  format: {
    showTime: boolean;
    fullTextChars: number;
  };
}

export const CODE_PROFILE: OmniConfig = {
  profile: 'code',
  forceText: true,
  notes: false,
  minTextChars: 10,
  maxTextChars: 10_000,
  jaccardReject: 0.8,
  jaccardUncertain: 0.5,
  noveltyWindow: 50,
  noveltyHistoryChars: 200,
  imageReject: 0.9,
  imageAccept: 0.7,
  imageSimilarity: 'embedding',
  summaryChars: 200,
  extractionWindow: 40,
  topK: 10,
  topKEvidence: 5,
  topKTemporal: 20,
  similarityThreshold: 0.0,
  bm25Weight: 0.01,
  bm25MinK: 10,
  autoExpandThreshold: 0.85,
  maxExpanded: 5,
  expansion: 'rank',
  tokenBudget: null,
  graph: { enabled: true, maxSeeds: 5, maxHops: 2, maxNeighbors: 10, mergeIntoResults: true, maxUnits: 5, decay: null, mergeThreshold: null },
  format: { showTime: true, fullTextChars: 2000 },
};

export const PAPER_PROFILE: OmniConfig = {
  ...CODE_PROFILE,
  profile: 'paper',
  similarityThreshold: 0.4,
  expansion: 'greedy',
  tokenBudget: 6000,
  graph: { ...CODE_PROFILE.graph, decay: 0.7, mergeThreshold: 0.85 },
};

export const config: OmniConfig = { ...CODE_PROFILE, graph: { ...CODE_PROFILE.graph }, format: { ...CODE_PROFILE.format } };
