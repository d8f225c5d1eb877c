// model_check.h — Your model › Check: another engine's RoPE tables (.npy, dropped on the window
// or opened with File → Open while a RoPE model is open) checked against the open model's layer
// as `pelab rope check` checks them (pelab/models/rope_check.h): the verdict, the engine's curve
// beside the reference's for a pair, the difference over positions × pairs.
#pragma once

#include "io/model_files.h"
#include "io/scene.h"
#include "pelab/models/rope_check.h"
#include "widgets/cached.h"

#include <cstdint>
#include <memory>
#include <string>

namespace pelab {

/// The Check view's pair whose curves are drawn (not a scene field: it follows the dump).
inline constexpr NumberControl kCheckPair{
    nullptr,
    "the Check view's pair whose curves are drawn",
    0,
    65536,
    0,
    "pair",
    "%d",
    false,
    "The pair whose cos (or angle) is drawn over positions, the engine's beside the reference's; "
    "a click on the map picks one too.",
    "model.check_pair"};
/// The position of the dumps' first row.
inline constexpr NumberControl kCheckFirst{
    "model_check_first",
    "the Check view: the position of the dropped tables' first row",
    0,
    2147483647,
    0,
    "row 0 is position",
    "%d",
    false,
    "The position of the tables' first row: a dump of positions 16000 to 16511 starts at 16000. "
    "Dynamic NTK and longrope decide by the last position + 1.",
    "model.check_first"};

/// The dumps given, by what they hold.
struct RopeDumpFiles {
    std::string cos, sin, inv_freq, angles;
    /// Counts the files given: a file given again (rewritten in place) is checked again.
    int given = 0;
    bool Any() const {
        return !cos.empty() || !sin.empty() || !inv_freq.empty() || !angles.empty();
    }
    bool operator==(const RopeDumpFiles& other) const {
        return cos == other.cos && sin == other.sin && inv_freq == other.inv_freq &&
               angles == other.angles && given == other.given;
    }
};

/// What the check is of: the files, the model (its service version) and the layer.
struct RopeCheckInputs {
    RopeDumpFiles files;
    std::uint64_t model_version = 0;
    int layer = -1;
    long long first_position = 0;             ///< the position of the dumps' first row
    std::shared_ptr<const ModelReport> model; ///< read by the computation, not compared
    bool operator==(const RopeCheckInputs& other) const {
        return files == other.files && model_version == other.model_version &&
               layer == other.layer && first_position == other.first_position;
    }
};

/// The check and its picture, or why it could not run.
struct RopeCheckOutcome {
    std::string waiting; ///< what is still missing ("drop the sin table too"), else ""
    std::string error;   ///< bad input: the message
    RopeCheckResult result;
    RopeCheckPicture picture;
    std::string layer_summary; ///< "layer 0 (full_attention): base 500000, …"
    RopeDumpKind kind = RopeDumpKind::CosSin;
    bool ran = false;
};

/// Rows of the dump the picture draws at most.
constexpr int kCheckPictureRows = 384;

RopeCheckOutcome ComputeRopeCheck(const RopeCheckInputs& inputs);

/// Which table a dropped .npy holds, by its shape and name: one row → inv_freq; a name with
/// "sin" or "cos" → that table; "angle" or "freq" → the angles. "" and the message otherwise.
std::string RopeDumpRole(const std::string& path, std::string* role);

} // namespace pelab
