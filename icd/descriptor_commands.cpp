// Thunks of the descriptor area: filled as its commands land (icd/commands/*.txt lists them).
