// Thunks of the queue area: filled as its commands land (icd/commands/*.txt lists them).
