#include "gl_texture_oracle.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>

namespace crashtest::test {

std::unique_ptr<GlTextureOracle> GlTextureOracle::Create(std::string* error) {
  auto getDisplay = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (getDisplay == nullptr) {
    *error = "EGL has no eglGetPlatformDisplayEXT";
    return nullptr;
  }
  // Surfaceless: no window system and no GPU needed; Mesa picks its software driver.
  EGLDisplay display = getDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (display == EGL_NO_DISPLAY || eglInitialize(display, nullptr, nullptr) != EGL_TRUE) {
    *error = "no surfaceless EGL display (Mesa's libegl-mesa0 and libgl1-mesa-dri)";
    return nullptr;
  }
  std::unique_ptr<GlTextureOracle> oracle(new GlTextureOracle());
  oracle->display_ = display;
  eglBindAPI(EGL_OPENGL_API);
  // OpenGL 4.3 has the ETC2 and EAC formats in core (ARB_ES3_compatibility).
  const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3, EGL_NONE};
  EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
  if (context == EGL_NO_CONTEXT || eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) != EGL_TRUE) {
    *error = "no OpenGL 4.3 context without a surface";
    return nullptr;
  }
  oracle->context_ = context;
  return oracle;
}

GlTextureOracle::~GlTextureOracle() {
  if (context_ != nullptr) {
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display_, context_);
  }
  if (display_ != nullptr) eglTerminate(display_);
}

std::vector<float> GlTextureOracle::Decode(uint32_t glInternalFormat, uint32_t width, uint32_t height,
                                          const void* blocks, uint32_t bytes, std::string* error) {
  auto compressedTexImage2D =
      reinterpret_cast<PFNGLCOMPRESSEDTEXIMAGE2DPROC>(eglGetProcAddress("glCompressedTexImage2D"));
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  compressedTexImage2D(GL_TEXTURE_2D, 0, glInternalFormat, static_cast<GLsizei>(width), static_cast<GLsizei>(height),
                       0, static_cast<GLsizei>(bytes), blocks);
  std::vector<float> texels(size_t{width} * height * 4, -9.0f);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, texels.data());
  const GLenum status = glGetError();
  glDeleteTextures(1, &texture);
  if (status != GL_NO_ERROR) {
    *error = "OpenGL error " + std::to_string(status) + " decoding format " + std::to_string(glInternalFormat);
    return {};
  }
  return texels;
}

}  // namespace crashtest::test
