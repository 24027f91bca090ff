// Thunks of the memory area: filled as its commands land (icd/commands/*.txt lists them).
