// Headless regressions from the hostile-input run: a layout restored off-screen, corrupt or
// binary settings, and the style surviving a new text size.
#include "cli/cli.h"
#include "cli/cli_checks.h"
#include "headless_fixture.h"
#include "io/settings_file.h"

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace pelab;

namespace {
class Reliability : public HeadlessApp {
protected:
    Reliability() : HeadlessApp(ImVec2(1280, 800)) {}
};
} // namespace

// After a fullscreen session at 1920×1080 the saved layout put panels where a 1280×800 window
// cannot reach them; the frame now tiles them again.
TEST_F(Reliability, PanelsRestoredOutOfReachAreTiledAgain) {
    Frame();
    ImGui::SetWindowPos(app.panels.Find("order")->window_name.c_str(), ImVec2(1700, 1000));
    Frame(); // the frame notices the title bar is out of reach…
    Frame(); // …and tiles on the next one
    const ImGuiWindow* order = WindowOf("order");
    ASSERT_NE(order, nullptr);
    EXPECT_TRUE(
        TitleBarReachable(order->Pos, order->Size.x, ImVec2(1280, 800), ImGui::GetFrameHeight()));
    EXPECT_LT(order->Pos.x + order->Size.x, 1281.0f);
    EXPECT_FALSE(TitleBarReachable(ImVec2(1700, 1000), 600, ImVec2(1280, 800), 20));
    EXPECT_FALSE(TitleBarReachable(ImVec2(-700, 100), 600, ImVec2(1280, 800), 20));
    EXPECT_TRUE(TitleBarReachable(ImVec2(-500, 100), 600, ImVec2(1280, 800), 20));
}

// imgui.ini is read through our handler too: garbage, binary bytes, absurd values and unknown
// themes leave the defaults, and nothing crashes.
TEST_F(Reliability, CorruptSettingsLeaveDefaults) {
    RegisterViewSettingsHandler(app.view);
    const std::string texts[] = {
        "[PELab][View]\nTheme=neon\nFontScale=1e999\n",
        "[PELab][View]\nFontScale=nan\nFontScale=-3\nTheme=\n",
        "[PELab][Other]\nTheme=light\n",
        "[Window][###waves]\nPos=999999999,-99999999\nSize=-5,1e30\n",
        std::string("\0\xff[PELab][View]\n\x01Theme=light",
                    sizeof("\0\xff[PELab][View]\n\x01Theme=light") - 1),
    };
    for (const std::string& text : texts) {
        ImGui::LoadIniSettingsFromMemory(text.data(), text.size());
        EXPECT_EQ(app.view.theme, ThemeId::Dark) << text;
        EXPECT_EQ(app.view.font_scale, 1.0f) << text;
        Frame();
    }
    std::mt19937 random(7);
    std::string noise(4096, '\0');
    for (int round = 0; round < 50; ++round) {
        for (char& c : noise)
            c = static_cast<char>(random());
        ImGui::LoadIniSettingsFromMemory(noise.data(), noise.size());
    }
    Frame();
    const std::string good = "[PELab][View]\nTheme=light\nFontScale=1.5\n";
    ImGui::LoadIniSettingsFromMemory(good.data(), good.size());
    EXPECT_EQ(app.view.theme, ThemeId::Light);
    EXPECT_EQ(app.view.font_scale, 1.5f);
}

// Ctrl+= used to rebuild the style with the fonts, resetting the colours to the dark theme.
TEST_F(Reliability, NewTextSizeKeepsTheThemesColours) {
    app.view.theme = ThemeId::Light;
    Frame();
    const ImVec4 light_background = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    EXPECT_GT(light_background.x, 0.9f);
    Frame({}, std::vector<KeyPress>(4, KeyPress{keys::kEqual, false, true})); // 1.15^4 ≈ 1.75
    BuildFonts(fonts, kBaseFontPixels * app.view.font_scale); // what the session does next
    Frame();
    EXPECT_EQ(ImGui::GetStyle().Colors[ImGuiCol_WindowBg].x, light_background.x);
    EXPECT_GT(ImGui::GetStyle().FramePadding.x, ImGuiStyle().FramePadding.x); // sizes scaled
}

// What counts as a settings file, and what SettingsFile does with everything else: read nothing,
// write nothing, say why once; never block on a FIFO.
TEST(SettingsFile, OnlySettingsAreReadAndWritten) {
    EXPECT_TRUE(LooksLikeSettings(""));
    EXPECT_TRUE(LooksLikeSettings("[PELab][View]\nTheme=light\n\n[Window][###waves]\r\nPos=1,2\n"));
    EXPECT_FALSE(LooksLikeSettings("root:x:0:0:root:/root:/bin/bash\n"));
    EXPECT_FALSE(LooksLikeSettings("Theme=light\n")); // a key before any section
    EXPECT_FALSE(LooksLikeSettings("[PELab][View]\nnot a setting\n"));
    EXPECT_FALSE(LooksLikeSettings(std::string("[A][B]\nK=\0V\n", 12)));

    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("pelab_settings_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string fifo = (dir / "fifo.ini").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    SettingsFile on_fifo(fifo);
    std::string text = "x";
    EXPECT_FALSE(on_fifo.Load(&text)); // returns at once: nothing opens the FIFO
    EXPECT_EQ(text, "");
    EXPECT_NE(on_fifo.Warning().find("not a regular file"), std::string::npos);
    EXPECT_FALSE(on_fifo.Save("[PELab][View]\nTheme=dark\n").empty());

    const std::string target = (dir / "dotfile.ini").string(), link = (dir / "link.ini").string();
    { std::ofstream(target) << "[PELab][View]\nTheme=light\n"; }
    std::filesystem::create_symlink(target, link);
    SettingsFile through_link(link);
    ASSERT_TRUE(through_link.Load(&text));
    EXPECT_EQ(text, "[PELab][View]\nTheme=light\n");
    EXPECT_EQ(through_link.Save("[PELab][View]\nTheme=dark\n"), "");
    EXPECT_TRUE(std::filesystem::is_symlink(link));
    std::ifstream in(target);
    std::string first, second;
    std::getline(in, first), std::getline(in, second);
    EXPECT_EQ(second, "Theme=dark");

    SettingsFile missing((dir / "new.ini").string());
    EXPECT_TRUE(missing.Load(&text));
    EXPECT_EQ(missing.Save("[PELab][View]\nTheme=dark\n"), "");
    std::filesystem::remove_all(dir);
}

// Every option that takes a file name says what its command does with it, so that the check that
// no command writes over its input (CheckNoInputIsWritten) sees it; a new option left out fails
// here. The finder itself is checked on a parser with an option it does not know.
TEST(CommandLineFiles, EveryFileOptionIsAnInputOrAnOutput) {
    char name[] = "pelab", command[] = "panels";
    char* argv[] = {name, command};
    const pelab::CommandLine parsed = pelab::ParseCommandLine(2, argv);
    EXPECT_TRUE(parsed.unclassified_file_options.empty())
        << ::testing::PrintToString(parsed.unclassified_file_options);
    CLI::App app{"test", "pelab"};
    std::string dump, out;
    CLI::App* export_command = app.add_subcommand("export", "");
    export_command->add_option("--dump", dump, "")->check(pelab::FileName());
    export_command->add_option("--out", out, "")->check(pelab::FileName());
    const std::vector<std::string> found = pelab::UnclassifiedFileOptions(app);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0], "pelab export --dump");
}
