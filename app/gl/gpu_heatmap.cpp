#include "gl/gpu_heatmap.h"
#include "widgets/plot.h"

#include "gl/offset_table_worker.h"
#include "gl/shaders.h"
#include "pelab/encodings/similarity.h"
#include "pelab/encodings/sinusoidal.h"

#include "gl/gl_api.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

namespace pelab {

namespace {

constexpr int kTurnsTextureWidth = 64;     // pair i sits at texel (i % 64, i / 64)
constexpr int kOffsetsTextureWidth = 1024; // offset k sits at texel (k % 1024, k / 1024)

// The compile or link log, trimmed, on one line.
std::string OneLine(std::string log) {
    for (char& c : log)
        if (c == '\n' || c == '\r') c = ' ';
    while (!log.empty() && log.back() == ' ')
        log.pop_back();
    return log;
}

GLuint CompileShader(GLenum type, const std::string& source, const char* name, std::string* error) {
    const GLuint shader = glCreateShader(type);
    const char* text = source.c_str();
    glShaderSource(shader, 1, &text, nullptr);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (ok == GL_TRUE) return shader;
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
    glGetShaderInfoLog(shader, length, nullptr, log.data());
    std::fprintf(stderr, "pelab: shader %s did not compile:\n%s\n", name, log.c_str());
    // c_str(): the log ends at its first NUL (GL counts the terminator in the length).
    *error = std::string("shader ") + name + " did not compile: " +
             OneLine(log.c_str()); // NOLINT(readability-redundant-string-cstr)
    glDeleteShader(shader);
    return 0;
}

// f = ω/2π in turns per position, split so that an integer position below 2^16 times the high
// part is exact in float32 (8 significant bits × 16 bits = 24 bits); see pe_heatmap.frag.
void SplitTurns(double turns, float* high, float* low) {
    int exponent = 0;
    const double mantissa = std::frexp(turns, &exponent);
    const double rounded = std::ldexp(std::round(mantissa * 256.0) / 256.0, exponent);
    *high = static_cast<float>(rounded);
    *low = static_cast<float>(turns - rounded);
}

// Every field that changes the pixels (the data itself is tracked by a version number).
bool SamePicture(const HeatmapRequest& a, const HeatmapRequest& b) {
    return a.picture == b.picture && a.max_len == b.max_len && a.d_model == b.d_model &&
           a.base == b.base && a.concatenated == b.concatenated && a.dim_min == b.dim_min &&
           a.dim_max == b.dim_max && a.pos_min == b.pos_min && a.pos_max == b.pos_max &&
           a.width == b.width && a.height == b.height && a.grey == b.grey &&
           a.negative == b.negative && a.middle == b.middle && a.positive == b.positive &&
           a.fit_values == b.fit_values;
}

} // namespace

struct GlHeatmaps::Impl {
    /// MatrixTexture's textures, by slot, with the version each holds.
    struct Matrix {
        GLuint texture = 0;
        unsigned long long version = 0;
    };
    std::map<int, Matrix> matrices;
    struct Program {
        const char* fragment_name;
        bool tried = false;
        GLuint id = 0;
        std::string error; ///< why it is missing, once tried
    };
    Program programs[2] = {{"pe_heatmap.frag", false, 0, {}},
                           {"similarity_heatmap.frag", false, 0, {}}};
    GLuint vertex_array = 0;
    GLuint turns_texture = 0; ///< PE matrix: (f_hi, f_lo) per pair
    int turns_d_model = 0;
    double turns_base = 0.0;
    GLuint offsets_texture = 0;               ///< similarity: f(k) / (d/2) per offset k
    OffsetTableWorker::Key offsets_key;       ///< what offsets_texture holds
    OffsetTableWorker offsets_worker;         ///< computes the next table off the frame
    float offsets_low = -1, offsets_high = 1; ///< the lowest and highest f(k) / (d/2) uploaded
    double drawn_low = -1, drawn_high = 1;    ///< where the last picture's map ends
    bool drew = false;                        ///< the last RenderHeatmap gave a picture
    bool pending = false;                     ///< the last similarity render waits for its table
    bool frame_pending = false;               ///< some render since TakeFramePending() did
    struct Target {
        GLuint framebuffer = 0, texture = 0;
        int width = 0, height = 0;
        // What the texture shows: a frame that asks for the same picture of the same data gets
        // it without drawing again (the pos A/B lines and hover are drawn over it by ImGui).
        HeatmapRequest drawn;
        int drawn_data_version = -1;
    };
    int data_version = 0; ///< bumped whenever a data texture is uploaded
    /// PELAB_HEATMAP_REDRAW set: draw every frame even when nothing changed (to measure what
    /// a frame that must draw costs, e.g. while panning, with --bench-frames).
    bool always_redraw = std::getenv(kRedrawVariable) != nullptr;
    std::vector<Target> targets;

    static int Index(HeatmapRequest::Picture picture) {
        return picture == HeatmapRequest::Picture::PeMatrix ? 0 : 1;
    }

    bool EnsureProgram(HeatmapRequest::Picture picture, std::string* message) {
        Program& program = programs[Index(picture)];
        if (!program.tried) {
            program.tried = true;
            const char* vertex = ShaderSource("fullscreen.vert");
            const char* fragment = ShaderSource(program.fragment_name);
            if (vertex == nullptr || fragment == nullptr) {
                program.error = "the heatmap shaders are missing from this build";
            } else {
                std::string fragment_source = fragment;
                if (std::getenv(kBrokenShaderVariable) != nullptr)
                    fragment_source += "\nthis line is not GLSL (" +
                                       std::string(kBrokenShaderVariable) + " is set)\n";
                const GLuint vs =
                    CompileShader(GL_VERTEX_SHADER, vertex, "fullscreen.vert", &program.error);
                const GLuint fs = vs == 0 ? 0
                                          : CompileShader(GL_FRAGMENT_SHADER, fragment_source,
                                                          program.fragment_name, &program.error);
                if (vs != 0 && fs != 0) {
                    program.id = glCreateProgram();
                    glAttachShader(program.id, vs);
                    glAttachShader(program.id, fs);
                    glLinkProgram(program.id);
                    GLint ok = GL_FALSE;
                    glGetProgramiv(program.id, GL_LINK_STATUS, &ok);
                    if (ok != GL_TRUE) {
                        char log[2048] = {};
                        glGetProgramInfoLog(program.id, sizeof log, nullptr, log);
                        std::fprintf(stderr, "pelab: the heatmap program did not link:\n%s\n", log);
                        program.error = "the heatmap program did not link: " + OneLine(log);
                        glDeleteProgram(program.id);
                        program.id = 0;
                    }
                }
                if (vs != 0) glDeleteShader(vs);
                if (fs != 0) glDeleteShader(fs);
            }
            if (vertex_array == 0) glGenVertexArrays(1, &vertex_array);
        }
        if (program.id == 0) *message = program.error;
        return program.id != 0;
    }

    static void Upload(GLuint* texture, GLenum internal, GLenum format, int width, int height,
                       const float* data) {
        if (*texture == 0) glGenTextures(1, texture);
        glBindTexture(GL_TEXTURE_2D, *texture);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        glTexImage2D(GL_TEXTURE_2D, 0, internal, width, height, 0, format, GL_FLOAT, data);
    }

    // The data texture the request's shader reads; wait: compute a missing similarity table now
    // (the render command) instead of in the background (the window). False when there is
    // nothing to draw from yet.
    bool EnsureData(const HeatmapRequest& r, bool wait) {
        // Only a similarity table still being computed makes a render pending; any other
        // render (the PE matrix after a pending similarity picture) ends it.
        pending = false;
        if (r.picture == HeatmapRequest::Picture::PeMatrix) {
            if (turns_texture != 0 && turns_d_model == r.d_model && turns_base == r.base)
                return true;
            const std::vector<double> omegas = frequencies(r.d_model, r.base);
            const int pairs = static_cast<int>(omegas.size());
            const int rows = (pairs + kTurnsTextureWidth - 1) / kTurnsTextureWidth;
            std::vector<float> texels(static_cast<std::size_t>(kTurnsTextureWidth) * rows * 2, 0.f);
            for (int i = 0; i < pairs; ++i)
                SplitTurns(omegas[i] / (2.0 * M_PI), &texels[2 * i], &texels[2 * i + 1]);
            Upload(&turns_texture, GL_RG32F, GL_RG, kTurnsTextureWidth, rows, texels.data());
            ++data_version;
            turns_d_model = r.d_model;
            turns_base = r.base;
            return true;
        }
        const OffsetTableWorker::Key key{r.max_len, r.d_model, r.base};
        if (offsets_texture != 0 && offsets_key == key) return true;
        const std::vector<double>* f = wait ? &offsets_worker.GetNow(key) : offsets_worker.Get(key);
        if (f == nullptr) {
            // Still being computed: meanwhile the table of another d_model or base still draws
            // a picture of the right size (not of another max_len: its offsets would not match).
            pending = frame_pending = true;
            return offsets_texture != 0 && offsets_key.max_len == key.max_len;
        }
        if (static_cast<int>(f->size()) < r.max_len) return false;
        const int rows = (r.max_len + kOffsetsTextureWidth - 1) / kOffsetsTextureWidth;
        std::vector<float> texels(static_cast<std::size_t>(kOffsetsTextureWidth) * rows, 0.f);
        const double half = r.d_model / 2.0;
        offsets_low = offsets_high = static_cast<float>((*f)[0] / half);
        for (int k = 0; k < r.max_len; ++k) {
            texels[k] = static_cast<float>((*f)[k] / half);
            offsets_low = std::min(offsets_low, texels[k]);
            offsets_high = std::max(offsets_high, texels[k]);
        }
        Upload(&offsets_texture, GL_R32F, GL_RED, kOffsetsTextureWidth, rows, texels.data());
        ++data_version;
        offsets_key = key;
        return true;
    }

    // Draws the fullscreen triangle into the bound framebuffer of width × height pixels.
    void Draw(const HeatmapRequest& r, int width, int height, const int grid[4]) {
        const bool pe = r.picture == HeatmapRequest::Picture::PeMatrix;
        const GLuint program = programs[Index(r.picture)].id;
        glViewport(0, 0, width, height);
        glDisable(GL_BLEND);
        glDisable(GL_SCISSOR_TEST);
        glClearColor(0, 0, 0, 0);
        glClear(GL_COLOR_BUFFER_BIT);
        glUseProgram(program);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, pe ? turns_texture : offsets_texture);
        const auto at = [&](const char* name) { return glGetUniformLocation(program, name); };
        glUniform2f(at("u_size"), static_cast<float>(width), static_cast<float>(height));
        glUniform4i(at("u_grid"), grid[0], grid[1], grid[2], grid[3]);
        glUniform1i(at("u_grey"), r.grey ? 1 : 0);
        const auto colour = [&](const char* name, ImU32 c) {
            const ImVec4 v = ImGui::ColorConvertU32ToFloat4(c);
            glUniform3f(at(name), v.x, v.y, v.z);
        };
        colour("u_negative", r.negative);
        colour("u_middle", r.middle);
        colour("u_positive", r.positive);
        const auto range = [&](const char* name, double low, double high) {
            glUniform2f(at(name), static_cast<float>(low), static_cast<float>(high));
        };
        if (pe) {
            glUniform1i(at("u_turns"), 0);
            glUniform1i(at("u_d_model"), r.d_model);
            glUniform1i(at("u_concatenated"), r.concatenated ? 1 : 0);
            range("u_dims", r.dim_min, r.dim_max);
            range("u_positions", r.pos_min, r.pos_max);
        } else {
            glUniform1i(at("u_offsets"), 0);
            glUniform1i(at("u_max_len"), r.max_len);
            range("u_columns", r.dim_min, r.dim_max);
            range("u_rows", r.pos_min, r.pos_max);
            // The map's ends: fitted to the table (a matrix of one value keeps ±1).
            const bool fit = r.fit_values && offsets_high > offsets_low;
            drawn_low = fit ? offsets_low : -1.0;
            drawn_high = fit ? offsets_high : 1.0;
            range("u_value_range", drawn_low, drawn_high);
        }
        glBindVertexArray(vertex_array);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glBindVertexArray(0);
        glUseProgram(0);
    }
};

GlHeatmaps::GlHeatmaps() : impl_(std::make_unique<Impl>()) {}

GlHeatmaps::~GlHeatmaps() = default;

ImTextureID GlHeatmaps::RenderHeatmap(int slot, const HeatmapRequest& request, std::string* error) {
    impl_->drew = false;
    if (!impl_->EnsureProgram(request.picture, error)) return nullptr;
    if (slot < 0 || slot > 15 || request.width < 1 || request.height < 1 || request.width > 8192 ||
        request.height > 8192) {
        *error = "heatmap size out of range";
        return nullptr;
    }
    if (!impl_->EnsureData(request, false)) {
        *error = impl_->pending ? "computing the table of PE(p)·PE(p + k) for " +
                                      std::to_string(request.max_len) + " offsets…"
                                : "the offset table could not be computed";
        return nullptr;
    }
    if (static_cast<int>(impl_->targets.size()) <= slot) impl_->targets.resize(slot + 1);
    Impl::Target& target = impl_->targets[slot];
    if (target.width != request.width || target.height != request.height) {
        if (target.texture == 0) glGenTextures(1, &target.texture);
        if (target.framebuffer == 0) glGenFramebuffers(1, &target.framebuffer);
        glBindTexture(GL_TEXTURE_2D, target.texture);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, request.width, request.height, 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, nullptr);
        glBindFramebuffer(GL_FRAMEBUFFER, target.framebuffer);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target.texture,
                               0);
        target.width = request.width;
        target.height = request.height;
        target.drawn_data_version = -1; // a new, empty texture
    }
    const ImTextureID texture =
        reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(target.texture));
    impl_->drew = true;
    if (!impl_->always_redraw && target.drawn_data_version == impl_->data_version &&
        SamePicture(target.drawn, request)) {
        // The same picture: its map's ends are the ones computed when it was drawn.
        const bool fit = request.fit_values && impl_->offsets_high > impl_->offsets_low &&
                         request.picture == HeatmapRequest::Picture::Similarity;
        impl_->drawn_low = fit ? impl_->offsets_low : -1.0;
        impl_->drawn_high = fit ? impl_->offsets_high : 1.0;
        return texture;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, target.framebuffer);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        *error = "the heatmap framebuffer is incomplete on this driver";
        return nullptr;
    }
    const int no_grid[4] = {0, 0, 0, 0};
    impl_->Draw(request, request.width, request.height, no_grid);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    target.drawn = request;
    target.drawn_data_version = impl_->data_version;
    return texture;
}

bool GlHeatmaps::RenderGrid(const HeatmapRequest& request, int max_len,
                            std::vector<unsigned char>* rgba, std::string* error) {
    if (!impl_->EnsureProgram(request.picture, error)) return false;
    const int width = request.width, height = request.height;
    GLint largest = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &largest);
    if (width > largest || height > largest) {
        *error = "the picture is larger than this GPU's largest framebuffer (" +
                 std::to_string(largest) + " pixels a side)";
        return false;
    }
    HeatmapRequest full = request;
    full.max_len = max_len;
    if (!impl_->EnsureData(full, true)) {
        *error = "the offset table could not be computed";
        return false;
    }
    GLuint framebuffer = 0, colour = 0;
    glGenFramebuffers(1, &framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glGenRenderbuffers(1, &colour);
    glBindRenderbuffer(GL_RENDERBUFFER, colour);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour);
    const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    if (complete) {
        const bool pe = request.picture == HeatmapRequest::Picture::PeMatrix;
        const int grid[4] = {width, height, pe ? request.d_model : max_len, max_len};
        impl_->Draw(full, width, height, grid);
        std::vector<unsigned char> bottom_up(static_cast<std::size_t>(width) * height * 4);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
        const std::size_t stride = static_cast<std::size_t>(width) * 4;
        rgba->resize(bottom_up.size());
        for (int y = 0; y < height; ++y)
            std::memcpy(rgba->data() + y * stride, bottom_up.data() + (height - 1 - y) * stride,
                        stride);
    } else {
        *error = "the offscreen framebuffer is incomplete on this driver";
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteRenderbuffers(1, &colour);
    glDeleteFramebuffers(1, &framebuffer);
    return complete;
}

bool GlHeatmaps::LastPending() const {
    return impl_->pending;
}

bool GlHeatmaps::LastValueRange(double* low, double* high) const {
    if (!impl_->drew) return false;
    *low = impl_->drawn_low;
    *high = impl_->drawn_high;
    return true;
}

bool GlHeatmaps::TakeFramePending() {
    const bool was = impl_->frame_pending;
    impl_->frame_pending = false;
    return was;
}

ImTextureID GlHeatmaps::MatrixTexture(int slot, const float* values, int rows, int cols,
                                      unsigned long long version, ImU32 negative, ImU32 middle,
                                      ImU32 positive, std::string* error) {
    GLint largest = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &largest);
    if (rows < 1 || cols < 1 || rows > largest || cols > largest) {
        *error = "a " + std::to_string(rows) + " × " + std::to_string(cols) +
                 " picture is larger than this GPU's textures (" + std::to_string(largest) + ")";
        return nullptr;
    }
    Impl::Matrix& matrix = impl_->matrices[slot];
    if (matrix.texture == 0 || matrix.version != version) {
        // Coloured once on the CPU (a few ms for 1024 × 1024), then only drawn.
        const plot::DivergingMap map{negative, middle, positive};
        std::vector<ImU32> texels(static_cast<std::size_t>(rows) * cols);
        for (std::size_t k = 0; k < texels.size(); ++k)
            texels[k] = plot::Diverging(values[k], map);
        if (matrix.texture == 0) glGenTextures(1, &matrix.texture);
        glBindTexture(GL_TEXTURE_2D, matrix.texture);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        // ImU32 is R in the low byte: RGBA bytes in memory on a little-endian machine.
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, cols, rows, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                     texels.data());
        matrix.version = version;
    }
    return reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(matrix.texture));
}

void GlHeatmaps::Release() {
    for (auto& [slot, matrix] : impl_->matrices)
        if (matrix.texture != 0) glDeleteTextures(1, &matrix.texture);
    impl_->matrices.clear();
    for (Impl::Target& target : impl_->targets) {
        if (target.framebuffer != 0) glDeleteFramebuffers(1, &target.framebuffer);
        if (target.texture != 0) glDeleteTextures(1, &target.texture);
    }
    impl_->targets.clear();
    if (impl_->turns_texture != 0) glDeleteTextures(1, &impl_->turns_texture);
    if (impl_->offsets_texture != 0) glDeleteTextures(1, &impl_->offsets_texture);
    if (impl_->vertex_array != 0) glDeleteVertexArrays(1, &impl_->vertex_array);
    for (Impl::Program& program : impl_->programs) {
        if (program.id != 0) glDeleteProgram(program.id);
        program.id = 0;
        program.tried = false;
    }
    impl_->turns_texture = impl_->offsets_texture = impl_->vertex_array = 0;
}

} // namespace pelab
