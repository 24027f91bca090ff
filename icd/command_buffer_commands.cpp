// Thunks of the command_buffer area: filled as its commands land (icd/commands/*.txt lists them).
