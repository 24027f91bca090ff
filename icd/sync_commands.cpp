// Thunks of the sync area: filled as its commands land (icd/commands/*.txt lists them).
