// Every panel declares the widget names it draws (PanelInfo::widgets, patterns with <i> for a
// number), and the declaration is what it records: each panel is drawn alone in each of its
// modes (tabs, plots, toggles), at a wide and a narrow window, text ×1 and ×2, controls shown
// and hidden; every recorded name matches a declaration, and every declaration is recorded in
// some mode. Lessons and quizzes are checked against this list when they are opened.
#include "headless_fixture.h"
#include "panels/alternatives/panel_alternatives.h"
#include "panels/model/panel_model.h"
#include "panels/order/panel_order.h"
#include "panels/panel_registry.h"
#include "panels/quiz/panel_quiz.h"
#include "panels/train/panel_train.h"
#include "pelab/export/export.h"
#include "shell/file_menu.h"
#include "test_paths.h"

#include "model_fixtures.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <unistd.h>

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace pelab;

namespace {

class WidgetNames : public HeadlessApp {
protected:
    WidgetNames() : HeadlessApp(ImVec2(1600, 1000), /*record=*/true) {}
};

// The scenes each panel is drawn in: its modes, beside the shared variations.
std::vector<std::string> Modes(const std::string& id) {
    if (id == "alternatives") {
        // Every tab of the table, then the variants that draw something else.
        std::vector<std::string> modes;
        for (const AlternativesTabInfo& tab : AlternativesTabs())
            modes.push_back(nlohmann::json{{"alternatives_tab", tab.id}}.dump());
        for (const char* variant : {R"({"alternatives_tab": "rope", "rope_typed": true})",
                                    R"({"alternatives_tab": "alibi", "alibi_causal": false})",
                                    R"({"alternatives_tab": "xpos", "pos_a": 600, "pos_b": 100})"})
            modes.emplace_back(variant);
        return modes;
    }
    if (id == "candidates")
        return {R"({"candidates_plot": "raw_index"})",
                R"({"candidates_plot": "binary"})",
                R"({"candidates_plot": "learned", "pos_a": 100})",
                R"({"candidates_plot": "sin_only"})",
                R"({"candidates_grid": true})",
                R"({"candidates_scale_embedding": true})"};
    if (id == "heatmap")
        return {R"({"heatmap_similarity": true})", R"({"heatmap_both_layouts": true})",
                R"({"heatmap_grey": true})"};
    if (id == "clocks") return {R"({"clock_show_b": false})", R"({"clock_show_shift": true})"};
    if (id == "compare")
        // Two rows of the GPT-2 fixture's table (opened in the Your model panel for these), one
        // past the table's end.
        return {"{}", R"({"compare_source": "model"})",
                R"({"compare_source": "model", "pos_b": 500})", R"({"compare_dims": "range"})",
                R"({"compare_dims": "every-kth"})"};
    if (id == "order")
        // The Real model view with nothing open (what to bring); with a GPT-2 open, below.
        return {R"({"pe_enabled": false})", R"({"random_embeddings": true})",
                R"({"order_view": "real"})"};
    if (id == "waves") return {R"({"many_waves": true})", R"({"playing": true})"};
    if (id == "train")
        return {R"({"train_view": "curves"})", R"({"train_view": "length"})",
                R"({"train_view": "attention", "train_layer": 0, "train_head": 3})",
                R"({"train_result": "shift-causal", "train_view": "attention"})"};
    if (id == "quiz")
        return {R"({"quiz_question": 0})", R"({"quiz_question": 11})",
                R"({"quiz_card_back": true})"};
    return {"{}"};
}

} // namespace

TEST_F(WidgetNames, DeclaredNamesAreTheRecordedOnes) {
    const nlohmann::json start = app.scene.Document();
    std::map<std::string, std::set<std::string>> recorded; // panel id → names
    const std::filesystem::path fixtures = std::filesystem::temp_directory_path() /
                                           ("pelab-widget-compare-" + std::to_string(getpid()));
    pelab_test::WriteModelFixtures(fixtures);
    for (const PanelEntry& entry : app.panels.Entries()) {
        if (entry.id == "compare") {
            ASSERT_EQ(app.models.Open(pelab::ModelRequest{(fixtures / "gpt2").string(), "", ""}),
                      "");
            app.models.Finish();
        } else if (app.models.Current()) {
            // Closed again: the Your model panel's own modes start with nothing open.
            app.models.Close();
        }
        for (const std::string& mode : Modes(entry.id))
            for (const bool hidden : {false, true})
                for (const float scale : {1.0f, 2.0f})
                    for (const ImVec2 size : {ImVec2(1600, 1000), ImVec2(1024, 768)}) {
                        ASSERT_EQ(app.scene.ApplyDocument(start), "");
                        ASSERT_EQ(app.scene.Apply(mode), "") << mode;
                        app.view.hide_controls = hidden;
                        app.view.font_scale = scale;
                        app.view.presented_panel = entry.id;
                        ImGui::GetIO().DisplaySize = size;
                        const auto collect = [&](const std::vector<KeyPress>& keys) {
                            app.recorder.rects.clear();
                            Frame({}, keys);
                            for (const auto& [name, rect] : app.recorder.rects)
                                if (name.rfind(entry.id + ".", 0) == 0)
                                    recorded[entry.id].insert(name);
                        };
                        for (int k = 0; k < 3; ++k)
                            collect({});
                        if (entry.id == "model" && !hidden && scale == 1.0f && size.x > 1500) {
                            // Each fixture family in each view, and a file it refuses.
                            const std::filesystem::path folder =
                                std::filesystem::temp_directory_path() /
                                ("pelab-widget-models-" + std::to_string(getpid()));
                            pelab_test::WriteModelFixtures(folder);
                            for (const char* family : {"gpt2", "llama", "t5", "bloom"}) {
                                ASSERT_EQ(app.models.Open(pelab::ModelRequest{
                                              (folder / family).string(), "", ""}),
                                          "");
                                app.models.Finish();
                                if (std::string(family) == "gpt2") {
                                    // The components in 3-D, with their turn slider.
                                    ASSERT_EQ(
                                        app.scene.Apply(
                                            R"({"model_view": "components", "model_3d": true})"),
                                        "");
                                    collect({});
                                    collect({});
                                    ASSERT_EQ(app.scene.Apply(R"({"model_3d": false})"), "");
                                }
                                for (const char* view :
                                     {"components", "similarity", "norms", "wavelengths", "pairing",
                                      "usage", "buckets", "slopes"}) {
                                    ASSERT_EQ(app.scene.Apply(
                                                  nlohmann::json{{"model_view", view}}.dump()),
                                              "");
                                    collect({});
                                    collect({});
                                }
                                if (std::string(family) == "llama") {
                                    // A query head past the fixture's 4: said so.
                                    ASSERT_EQ(
                                        app.scene.Apply(
                                            R"({"model_view": "usage", "model_usage_head": 9})"),
                                        "");
                                    collect({});
                                    collect({});
                                    ASSERT_EQ(app.scene.Apply(R"({"model_usage_head": -1})"), "");
                                    // The Check view: empty, one table (waiting for the other),
                                    // both (random numbers: a verdict, the curves, the map).
                                    ASSERT_EQ(app.scene.Apply(R"({"model_view": "check"})"), "");
                                    collect({});
                                    const auto dump = [&](const char* name) {
                                        std::string path = (folder / name).string();
                                        std::ofstream out(path, std::ios::binary);
                                        pelab::write_npy_header(out, "<f4", {64, 8});
                                        for (int k = 0; k < 64 * 8; ++k) {
                                            const float value = std::sin(1.7f * k);
                                            out.write(reinterpret_cast<const char*>(&value), 4);
                                        }
                                        return path;
                                    };
                                    ASSERT_EQ(pelab::OpenFile(app, dump("cos.npy")), "");
                                    collect({});
                                    ASSERT_EQ(pelab::OpenFile(app, dump("sin.npy")), "");
                                    collect({});
                                    collect({});
                                    auto& model = dynamic_cast<pelab::ModelPanel&>(*entry.panel);
                                    model.check_files = {};
                                }
                            }
                            // A config.json alone with kinds of layers (Llama 4 Scout's, from
                            // tests/models/configs): the strip, its menu, a NoPE layer chosen.
                            ASSERT_EQ(app.models.Open(pelab::ModelRequest{
                                          (std::filesystem::path(pelab_test::SourceDir()) /
                                           "tests/models/configs/llama-4-scout-17b-16e")
                                              .string(),
                                          "", ""}),
                                      "");
                            app.models.Finish();
                            for (const char* scene :
                                 {R"({"model_view": "wavelengths", "model_layer": -1})",
                                  R"({"model_view": "usage"})",
                                  R"({"model_view": "wavelengths", "model_layer": 3})"}) {
                                ASSERT_EQ(app.scene.Apply(scene), "");
                                collect({});
                                collect({});
                            }
                            ASSERT_EQ(app.scene.Apply(R"({"model_layer": -1})"), "");
                            std::ofstream(folder / "bad.safetensors") << "12345678{}";
                            (void)app.models.Open(
                                pelab::ModelRequest{(folder / "bad.safetensors").string(), "", ""});
                            // A .npy whose first value is NaN: opened, then refused.
                            std::string dict =
                                "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 1), }";
                            dict.resize(117, ' ');
                            std::ofstream(folder / "nan.npy", std::ios::binary)
                                << std::string("\x93NUMPY\x01\x00\x76\x00", 10) << dict << '\n'
                                << std::string("\x00\x00\xc0\x7f\x00\x00\x80\x3f", 8);
                            ASSERT_EQ(app.models.Open(pelab::ModelRequest{
                                          (folder / "nan.npy").string(), "", ""}),
                                      "");
                            app.models.Finish();
                            collect({});
                            std::filesystem::remove_all(folder);
                        }
                        if (entry.id == "order" && !hidden && mode == R"({"pe_enabled": false})") {
                            // The X rows' header opened (as a click opens it): its dims slider.
                            auto& order = dynamic_cast<OrderPanel&>(*entry.panel);
                            order.x_rows_open = true;
                            collect({});
                            // Scrolled down to it: the header sits under the matrices.
                            ImGuiWindow* window = WindowOf("order");
                            ASSERT_NE(window, nullptr);
                            for (int k = 0; k < 3; ++k) {
                                ImGui::SetScrollY(window, window->ScrollMax.y);
                                collect({});
                            }
                            order.x_rows_open = false;
                        }
                        if (entry.id == "order" && !hidden) {
                            // The Real model view on a whole GPT-2 (and a sentence it refuses).
                            const std::filesystem::path folder =
                                std::filesystem::temp_directory_path() /
                                ("pelab-widget-order-" + std::to_string(getpid()));
                            pelab_test::WriteGpt2RunFixture(folder);
                            ASSERT_EQ(app.models.Open(pelab::ModelRequest{folder.string(), "", ""}),
                                      "");
                            app.models.Finish();
                            for (const char* real :
                                 {R"({"order_view": "real"})",
                                  R"({"order_view": "real", "real_text_a": ""})"}) {
                                ASSERT_EQ(app.scene.Apply(real), "");
                                for (int k = 0; k < 3; ++k)
                                    collect({});
                            }
                            app.models.Close();
                            std::filesystem::remove_all(folder);
                            // … and on a rotary model, under the shift (its closeness plot).
                            pelab_test::WriteLlamaRunFixture(folder);
                            ASSERT_EQ(app.models.Open(pelab::ModelRequest{folder.string(), "", ""}),
                                      "");
                            app.models.Finish();
                            ASSERT_EQ(app.scene.Apply(
                                          R"({"order_view": "real", "real_switch": "shift"})"),
                                      "");
                            for (int k = 0; k < 3; ++k)
                                collect({});
                            app.models.Close();
                            std::filesystem::remove_all(folder);
                        }
                        if (entry.id == "train" && !hidden) {
                            // Every method with options ticked: their boxes, from their rows.
                            auto& train = dynamic_cast<TrainPanel&>(*entry.panel);
                            const TrainSettings before = train.edit;
                            for (const PositionalKind kind : positional_kinds())
                                if (!positional_method_info(kind).options.empty())
                                    train.edit.variants.push_back(kind);
                            collect({});
                            collect({});
                            train.edit = before;
                        }
                        if (entry.id == "quiz") {
                            // Each tab, and a question answered and revealed (1, Enter).
                            auto& quiz = dynamic_cast<QuizPanel&>(*entry.panel);
                            for (const auto mode :
                                 {QuizPanel::Mode::Cards, QuizPanel::Mode::TeachBack,
                                  QuizPanel::Mode::Questions}) {
                                quiz.mode = mode;
                                collect({});
                                collect({});
                            }
                            collect({KeyPress{'1', false, false}});
                            collect({KeyPress{keys::kEnter, false, false}});
                            collect({});
                        }
                    }
    }
    for (const PanelEntry& entry : app.panels.Entries()) {
        std::vector<std::string> declared;
        for (const WidgetName& widget : FindPanelInfo(entry.id)->widgets())
            declared.push_back(widget.name);
        std::set<std::string> used;
        for (const std::string& name : recorded[entry.id]) {
            bool matched = false;
            for (const std::string& pattern : declared)
                if (WidgetNameMatches(pattern, name)) matched = true, used.insert(pattern);
            EXPECT_TRUE(matched) << entry.id << " records \"" << name
                                 << "\" but does not declare it";
        }
        for (const std::string& pattern : declared)
            EXPECT_TRUE(used.count(pattern))
                << entry.id << " declares \"" << pattern << "\" but never records it";
    }
    std::filesystem::remove_all(fixtures);
}

// `pelab lesson widgets` says in one line what each name outlines, so a teacher picks a name
// without trying it: every declared name has a line of its own (not empty, one line, short
// enough for a terminal beside the name, not the same as another's), and a name is declared
// once. Numbered names say which number ("pair i", "column i", …).
TEST(WidgetDescriptions, EveryNameSaysWhatItOutlines) {
    std::set<std::string> names, lines;
    for (const PanelInfo& info : PanelInfos()) {
        for (const WidgetName& widget : info.widgets()) {
            SCOPED_TRACE(widget.name);
            EXPECT_TRUE(names.insert(widget.name).second) << "declared twice";
            EXPECT_EQ(widget.name.rfind(std::string(info.id) + ".", 0), 0u);
            EXPECT_GE(widget.what.size(), 8u) << "no description";
            EXPECT_LE(widget.what.size(), 90u) << widget.what;
            EXPECT_EQ(widget.what.find('\n'), std::string::npos);
            EXPECT_TRUE(lines.insert(info.id + (": " + widget.what)).second)
                << "the same line as another name of the panel: " << widget.what;
            if (widget.name.find("<i>") != std::string::npos) {
                EXPECT_NE(widget.what.find(" i"), std::string::npos)
                    << "a numbered name says what i counts: " << widget.what;
            }
        }
    }
}

// What a widget declares it shows (WidgetName::shows, the readouts `lesson check` looks in for
// a caption's numbers) are readouts its panel has: each key is a top-level key of the panel's
// readouts in one of its modes. And the pictures and numbers a shipped caption quotes declare
// some (the readout table, the similarity numbers, the train verdict).
TEST_F(WidgetNames, ShownReadoutsAreThePanelsOwn) {
    const nlohmann::json start = app.scene.Document();
    for (const PanelEntry& entry : app.panels.Entries()) {
        std::set<std::string> keys;
        for (const std::string& mode : Modes(entry.id)) {
            ASSERT_EQ(app.scene.ApplyDocument(start), "");
            ASSERT_EQ(app.scene.Apply(mode), "") << mode;
            app.view.presented_panel = entry.id;
            Frame();
            const nlohmann::json readouts = entry.panel->Readouts(app.state);
            for (auto item = readouts.begin(); item != readouts.end(); ++item)
                keys.insert(item.key());
        }
        for (const WidgetName& widget : FindPanelInfo(entry.id)->widgets())
            for (const std::string& key : widget.shows)
                EXPECT_TRUE(keys.count(key)) << widget.name << " shows \"" << key << "\", which "
                                             << entry.id << "'s readouts do not have";
    }
    std::set<std::string> showing;
    for (const PanelInfo& info : PanelInfos())
        for (const WidgetName& widget : info.widgets())
            if (!widget.shows.empty()) showing.insert(widget.name);
    for (const char* name : {"waves.readouts", "compare.cosine", "compare.dot_product",
                             "train.verdict", "rotation.residual"})
        EXPECT_TRUE(showing.count(name)) << name << " shows no readout";
}
