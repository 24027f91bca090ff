// Thunks of the query area: filled as its commands land (icd/commands/*.txt lists them).
