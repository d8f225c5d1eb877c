// pe_heatmap.frag - the sinusoidal positional encoding, positions x dimensions, one value per
// pixel. Nothing but the frequencies is uploaded: each pixel finds its (position, dimension)
// from the visible window and computes PE(pos, dim) itself, so the cost depends on the number
// of pixels, not on max_len x d_model.
//
// Exactness. float32 sin(pos * w) is wrong by ~1e-2 at pos ~ 65 000: the product pos * w loses
// ~5e-8 * pos radians to rounding, and GPU sin is not correctly rounded for large arguments. So
// the angle is reduced exactly first. The CPU gives, per pair, f = w / 2pi (turns per position,
// computed in double) split into f_hi, f rounded to 8 significant bits, and f_lo = f - f_hi.
// For an integer position below 2^16, pos * f_hi needs at most 16 + 8 = 24 significant bits, so
// float32 computes it exactly and fract() of it is exact. pos * f_lo is at most 2^-8 of the
// turns, so its rounding error is ~2^-24 of that: <= 4e-6 turns at pos 65 535. The angle is then
// taken in [-pi, pi), where GPU sin and cos are accurate to ~1e-6. In all, every value is within
// ~3e-5 of the exact one: far inside one 8-bit colour level (2/255 ~ 0.008 of the [-1, 1] range).
#version 330 core

uniform sampler2D u_turns; // RG32F, 64 texels wide: pair i at (i % 64, i / 64) = (f_hi, f_lo)
uniform int u_d_model;
uniform int u_concatenated; // 0: interleaved (sin, cos, sin, ...); 1: all sins, then all cosines
uniform vec2 u_size;        // target size in pixels
// The visible window, in data units: dimensions left to right, positions bottom to top.
uniform vec2 u_dims;
uniform vec2 u_positions;
// The render command's integer mapping, when u_grid.x > 0: (W, H, D, L); pixel column x shows
// dimension floor(x*D/W) and pixel row y, counted from the top, position floor(y*L/H).
uniform ivec4 u_grid;
uniform int u_grey;         // 1: grey level (v + 1) / 2; 0: the diverging map below
uniform vec3 u_negative;    // colour at -1
uniform vec3 u_middle;      // colour at 0
uniform vec3 u_positive;    // colour at +1

out vec4 colour;

void main() {
    int x = int(gl_FragCoord.x);
    int y = int(gl_FragCoord.y); // from the bottom
    int dim;
    int pos;
    if (u_grid.x > 0) {
        int row_from_top = u_grid.y - 1 - y;
        dim = x * u_grid.z / u_grid.x;
        pos = row_from_top * u_grid.w / u_grid.y;
    } else {
        float d = u_dims.x + (float(x) + 0.5) * (u_dims.y - u_dims.x) / u_size.x;
        float p = u_positions.x + (float(y) + 0.5) * (u_positions.y - u_positions.x) / u_size.y;
        if (d < 0.0 || d >= float(u_d_model) || p < 0.0 || p >= 65536.0) {
            colour = vec4(0.0); // outside the matrix: transparent
            return;
        }
        dim = int(floor(d));
        pos = int(floor(p));
    }
    int pairs = u_d_model / 2;
    int pair = u_concatenated == 1 ? dim % pairs : dim / 2;
    bool is_cos = u_concatenated == 1 ? dim >= pairs : (dim % 2) == 1;
    vec2 f = texelFetch(u_turns, ivec2(pair % 64, pair / 64), 0).rg;
    float turns = fract(float(pos) * f.x) + float(pos) * f.y; // exact + small
    turns = fract(turns + 0.5) - 0.5;                             // in [-0.5, 0.5)
    float angle = 6.28318530717958648 * turns;
    float value = is_cos ? cos(angle) : sin(angle);
    if (u_grey == 1) {
        colour = vec4(vec3((value + 1.0) * 0.5), 1.0);
    } else {
        vec3 c = value < 0.0 ? mix(u_middle, u_negative, -value) : mix(u_middle, u_positive, value);
        colour = vec4(c, 1.0);
    }
}
