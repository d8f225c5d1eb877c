// The framework float32 figures the precision panel shows
// (app/panels/precision/precision_measured.h) are what NumPy and PyTorch give on this machine:
// tests/reference/float32_frameworks.py measures them again here, and the C++ correctly rounded
// recipe (the floor) matches the script's.
#include "panels/precision/panel_precision.h"
#include "panels/precision/precision_measured.h"
#include "pelab/encodings/precision.h"
#include "shell/app.h"
#include "test_paths.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>

using namespace pelab;

namespace {

nlohmann::json RunScript() {
    // Debian's python3, which python3-numpy and python3-torch serve.
    const std::string command = "/usr/bin/python3 " + std::string(pelab_test::SourceDir()) +
                                "/tests/reference/float32_frameworks.py";
    std::FILE* pipe = ::popen(command.c_str(), "r");
    std::string text;
    char buffer[4096];
    while (pipe && std::fgets(buffer, sizeof buffer, pipe))
        text += buffer;
    const int status = pipe ? ::pclose(pipe) : -1;
    if (status != 0) return nullptr;
    return nlohmann::json::parse(text);
}

} // namespace

TEST(Precision, MeasuredFrameworkFiguresAreWhatTheReferenceScriptMeasures) {
    const nlohmann::json measured = RunScript();
    ASSERT_FALSE(measured.is_null())
        << "tests/reference/float32_frameworks.py needs python3-numpy and python3-torch "
           "(scripts/deps.sh test)";
    EXPECT_EQ("NumPy " + measured["numpy_version"].get<std::string>(), kMeasuredNumpy);
    EXPECT_EQ("PyTorch " + measured["torch_version"].get<std::string>(), kMeasuredTorch);
    for (const MeasuredFloat32Errors& row : kMeasuredFloat32Errors) {
        const std::string d = std::to_string(row.d_model);
        for (int k = 0; k < 3; ++k) {
            // The header keeps 4 significant digits.
            const double numpy = measured["numpy"][d][k], torch = measured["torch"][d][k],
                         floor = measured["correctly_rounded"][d][k];
            EXPECT_NEAR(row.numpy[k], numpy, 1e-3 * numpy) << d << " " << k;
            EXPECT_NEAR(row.torch[k], torch, 1e-3 * torch) << d << " " << k;
            EXPECT_NEAR(row.correctly_rounded[k], floor, 1e-3 * floor) << d << " " << k;
            // The C++ correctly rounded recipe is the script's. (Not a strict floor: PyTorch
            // multiplies by the double −ln(base)/d, and lands below it at d 256, 10⁶.)
            EXPECT_NEAR(recipe_max_error(PeRecipe::Float32Code, kMeasuredPositions[k], row.d_model,
                                         kMeasuredBase),
                        floor, 1e-6 * floor)
                << d << " " << k;
        }
    }
    // The figures docs/panels.md states at d 512: PyTorch 6.5e-5 / 5.3e-3 / 0.045, NumPy 1.29e-4
    // / 6.3e-3 / 0.068, the floor 6.1e-5 / 5.3e-3 / 0.038.
    EXPECT_NEAR(measured["torch"]["512"][2].get<double>(), 0.045, 0.001);
    EXPECT_NEAR(measured["numpy"]["512"][2].get<double>(), 0.068, 0.001);
}

TEST(Precision, PanelShowsTheFrameworkRangeWithBothEndsNamed) {
    const std::string sentence = FrameworkRangeSentence(512, 10000);
    EXPECT_NE(sentence.find(kMeasuredNumpy), std::string::npos) << sentence;
    EXPECT_NE(sentence.find(kMeasuredTorch), std::string::npos) << sentence;
    EXPECT_NE(sentence.find("0.045 (PyTorch 1.13) to 0.068 (NumPy 1.24)"), std::string::npos)
        << sentence;
    // Not measured at another base: said so, no numbers invented.
    EXPECT_EQ(MeasuredErrors(512, 500), nullptr);
    EXPECT_NE(FrameworkRangeSentence(512, 500).find("measured at base 10\u00a0000"),
              std::string::npos);
    App app;
    const nlohmann::json readouts = app.Document(true)["readouts"]["precision"];
    ASSERT_TRUE(readouts["float32_frameworks"].is_array());
    EXPECT_NEAR(readouts["float32_frameworks"][2]["numpy"].get<double>(), 0.068, 0.001);
    ASSERT_EQ(app.scene.Apply(R"({"base": 500})"), "");
    EXPECT_TRUE(app.Document(true)["readouts"]["precision"]["float32_frameworks"].is_null());
}
