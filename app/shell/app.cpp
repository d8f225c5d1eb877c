#include "shell/app.h"

#include "io/json_input.h"
#include "panels/scene_controls.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace pelab {

using nlohmann::json;

void ViewSettings::ScaleText(float factor) {
    font_scale = std::clamp(font_scale * factor, kMinFontScale, kMaxFontScale);
}

namespace {

// The shared parameters' rows.
void AddSharedFields(SceneTable& table, AppState& state) {
    table.Integer(kDModel, &state.d_model);
    table.Number(kBase, &state.base);
    table.Number(kPosA, &state.pos_a);
    table.Number(kPosB, &state.pos_b);
    // The pair's range depends on d_model, which may be in the same scene (checked first).
    table.Add({kPair.field, std::string("integer in [0, d_model/2): ") + kPair.doc,
               [&state](const json& value, const json& doc) -> std::function<void()> {
                   int d_model = state.d_model;
                   if (doc.contains("d_model") && doc["d_model"].is_number_integer())
                       d_model = doc["d_model"].get<int>();
                   const int pair = SceneInteger(value, 0, d_model / 2 - 1);
                   return [&state, pair] { state.pair = pair; };
               },
               [&state] { return json(state.pair); }});
    table.Integer(kShiftK, &state.shift_k);
    table.Bool("playing", "pos A moves by itself", &state.playing);
    table.Number("play_speed", "positions per second while playing", &state.play_speed,
                 kUiMinPlaySpeed, kUiMaxPlaySpeed);
    table.Bool("play_smooth", "Play glides through fractional positions (false: whole positions)",
               &state.play_smooth);
}

void AddViewFields(SceneTable& table, ViewSettings& view, PanelRegistry& panels) {
    table.Bool("hide_controls", "panels show only their pictures and key numbers",
               &view.hide_controls);
    table.Add({"mode", "\"beginner\" (the advanced controls hidden) or \"advanced\"",
               [&view](const json& value, const json&) -> std::function<void()> {
                   if (value != "beginner" && value != "advanced")
                       throw SceneFieldError{"must be \"beginner\" or \"advanced\" (got " +
                                             Excerpt(value) + ")"};
                   const bool advanced = value == "advanced";
                   return [&view, advanced] { view.advanced = advanced; };
               },
               [&view] { return json(view.advanced ? "advanced" : "beginner"); }});
    table.Number("font_scale", "text size", &view.font_scale, kMinFontScale, kMaxFontScale);
    table.Add({"theme", "\"dark\", \"light\" (projector) or \"high-contrast\"",
               [&view](const json& value, const json&) -> std::function<void()> {
                   ThemeId id = ThemeId::Dark;
                   if (!value.is_string() || !ThemeFromName(value.get<std::string>(), &id))
                       throw SceneFieldError{"must be one of " + ThemeNameList() + " (got " +
                                             Excerpt(value) + ")"};
                   return [&view, id] { view.theme = id; };
               },
               [&view] { return json(GetTheme(view.theme).name); }});
    table.Add({"open_panels", "list of panel ids: the panels shown tiled",
               [&panels](const json& value, const json&) -> std::function<void()> {
                   if (!value.is_array())
                       throw SceneFieldError{"must be a list of panel ids: " + panels.IdList()};
                   std::vector<std::string> ids;
                   for (const json& id : value) {
                       if (!id.is_string() || !panels.IsKnown(id.get<std::string>()))
                           throw SceneFieldError{"unknown panel " + Excerpt(id) +
                                                 "; known: " + panels.IdList()};
                       ids.push_back(id.get<std::string>());
                   }
                   return [&panels, ids] {
                       for (PanelEntry& entry : panels.Entries())
                           entry.open = std::find(ids.begin(), ids.end(), entry.id) != ids.end();
                   };
               },
               [&panels] {
                   json ids = json::array();
                   for (const PanelEntry& entry : panels.Entries())
                       if (entry.open) ids.push_back(entry.id);
                   return ids;
               }});
    table.Text("presented_panel", "\"\" or one panel id, shown alone filling the window",
               &view.presented_panel, [&panels](const std::string& id) {
                   return id.empty() || panels.IsKnown(id)
                              ? std::string()
                              : "must be \"\" or a panel id: " + panels.IdList();
               });
}

} // namespace

App::App() {
    state.models = &models;
    AddSharedFields(scene, state);
    AddViewFields(scene, view, panels);
    for (PanelEntry& entry : panels.Entries())
        entry.panel->AddSceneFields(scene);
    for (PanelEntry& entry : panels.Entries())
        entry.panel->Ready(scene, panels);
    defaults = scene.Document();
    defaults.erase("theme");
    defaults.erase("font_scale");
    defaults.erase("mode");
}

json App::GuardStudentWork(json doc) {
    const SceneField* field = scene.Find("teach_back_text");
    if (field == nullptr || !doc.is_object() || !doc.contains("teach_back_text")) return doc;
    const json incoming = doc["teach_back_text"];
    const json current = field->write();
    if (!incoming.is_string()) return doc; // the scene table refuses it, with its message
    if (incoming.get<std::string>().empty() || incoming == current) {
        doc.erase("teach_back_text");
    } else if (!current.is_string() || !current.get<std::string>().empty()) {
        doc.erase("teach_back_text");
        incoming_teach_back = incoming.get<std::string>();
    }
    return doc;
}

void App::AnswerTeachBackQuestion(bool replace) {
    if (replace && incoming_teach_back)
        scene.ApplyDocument(json{{"teach_back_text", *incoming_teach_back}});
    incoming_teach_back.reset();
}

bool App::ShareModel() {
    const bool reading = models.Poll();
    state.model_table = models.Table();
    state.opened_model = models.Current();
    return reading;
}

std::string App::OpenModel(const std::string& path, bool wait) {
    std::string error = models.Open(ModelRequest{path, "", ""});
    if (error.empty() && wait) {
        models.Finish();
        ShareModel();
        error = models.OpenError();
    }
    if (error.empty())
        if (PanelEntry* model = panels.ModelViewer()) model->open = true;
    return error;
}

json App::Document(bool with_readouts) const {
    json doc = scene.Document();
    if (with_readouts) {
        json readouts = json::object();
        for (const PanelEntry& entry : panels.Entries())
            readouts[entry.id] = entry.panel->Readouts(state);
        if (lesson.Active()) readouts["lesson"] = LessonReadout(lesson);
        doc["readouts"] = readouts;
    }
    return doc;
}

namespace {

void* ViewSettingsOpen(ImGuiContext*, ImGuiSettingsHandler* handler, const char* name) {
    return std::strcmp(name, "View") == 0 ? handler->UserData : nullptr;
}

void ViewSettingsReadLine(ImGuiContext*, ImGuiSettingsHandler*, void* entry, const char* line) {
    auto* view = static_cast<ViewSettings*>(entry);
    char theme[32] = {};
    float scale = 0;
    // Unknown or out-of-range values are ignored: the defaults stay.
    if (std::sscanf(line, "Theme=%31s", theme) == 1) {
        ThemeId id = ThemeId::Dark;
        if (ThemeFromName(theme, &id)) view->theme = id;
    } else if (std::sscanf(line, "FontScale=%f", &scale) == 1 && scale >= kMinFontScale &&
               scale <= kMaxFontScale) {
        view->font_scale = scale;
    } else if (std::strcmp(line, "Mode=beginner") == 0 || std::strcmp(line, "Mode=advanced") == 0) {
        view->advanced = std::strcmp(line, "Mode=advanced") == 0;
    } else if (std::strncmp(line, "Recent=", 7) == 0 && line[7] != '\0' &&
               view->recent_files.size() < kMaxRecentFiles) {
        view->recent_files.emplace_back(line + 7);
    }
}

void ViewSettingsWriteAll(ImGuiContext*, ImGuiSettingsHandler* handler, ImGuiTextBuffer* out) {
    const auto* view = static_cast<const ViewSettings*>(handler->UserData);
    out->appendf("[%s][View]\nTheme=%s\nFontScale=%.4f\nMode=%s\n", handler->TypeName,
                 GetTheme(view->theme).name, view->font_scale,
                 view->advanced ? "advanced" : "beginner");
    for (const std::string& path : view->recent_files)
        out->appendf("Recent=%s\n", path.c_str());
    out->append("\n");
}

} // namespace

void RegisterViewSettingsHandler(ViewSettings& view) {
    ImGuiSettingsHandler handler;
    handler.TypeName = "PELab";
    handler.TypeHash = ImHashStr("PELab");
    handler.ReadOpenFn = ViewSettingsOpen;
    handler.ReadLineFn = ViewSettingsReadLine;
    handler.WriteAllFn = ViewSettingsWriteAll;
    handler.UserData = &view;
    ImGui::GetCurrentContext()->SettingsHandlers.push_back(handler);
}

} // namespace pelab
