// Thunks of the render pass area.
