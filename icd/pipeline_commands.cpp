// Thunks of the pipeline area: filled as its commands land (icd/commands/*.txt lists them).
