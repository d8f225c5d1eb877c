#include "io/train_run.h"

#include "io/json_input.h"
#include "pelab/base/error.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pelab {

using nlohmann::json;

namespace {

// A value rounded to `digits` significant digits: what a file keeps of a loss.
double Significant(double value, int digits) {
    char text[40];
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    return std::strtod(text, nullptr);
}

// value to the nearest multiple of 1 / per_unit, as the double nearest that decimal (dividing by
// per_unit, not multiplying by its inverse: 138 * 1e-4 is 0.013800000000000002 and would be
// written with all 17 digits, 138 / 1e4 is 0.0138).
double Rounded(double value, double per_unit) {
    return std::round(value * per_unit) / per_unit;
}

// Reading: the first problem found, with where it is ("variant 2 (learned): field \"loss\": ").
struct RunProblem {
    std::string message;
};

[[noreturn]] void Refuse(const std::string& where, const std::string& what, const json& value) {
    throw RunProblem{where + what + " (got " + Excerpt(value) + ")"};
}

std::string Field(const std::string& where, const char* key) {
    return where + "field \"" + key + "\": ";
}

const json& Need(const json& object, const std::string& where, const char* key) {
    if (!object.is_object() || !object.contains(key))
        throw RunProblem{Field(where, key) + "missing (it is required)"};
    return object.at(key);
}

void OnlyKeys(const json& object, const std::string& where, const std::vector<const char*>& known) {
    if (!object.is_object()) Refuse(where, "must be an object { … }", object);
    for (auto item = object.begin(); item != object.end(); ++item)
        if (std::find_if(known.begin(), known.end(),
                         [&](const char* k) { return item.key() == k; }) == known.end()) {
            std::string list;
            for (const char* k : known)
                list += std::string(list.empty() ? "" : ", ") + k;
            throw RunProblem{where + "unknown field \"" + PrintableLine(item.key()) + "\" (" +
                             "one of " + list + ")"};
        }
}

double NumberIn(const json& value, const std::string& where, double low, double high) {
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < low ||
        value.get<double>() > high) {
        char range[120];
        std::snprintf(range, sizeof range, "must be a number in [%.10g, %.10g]", low, high);
        Refuse(where, range, value);
    }
    return value.get<double>();
}

int WholeIn(const json& value, const std::string& where, long long low, long long high) {
    const std::string range =
        "must be a whole number in [" + std::to_string(low) + ", " + std::to_string(high) + "]";
    if (!value.is_number_integer()) Refuse(where, range, value);
    // An unsigned value may be past what long long holds: compared as unsigned first.
    if (value.is_number_unsigned() &&
        value.get<unsigned long long>() > static_cast<unsigned long long>(high))
        Refuse(where, range, value);
    const long long whole = value.is_number_unsigned()
                                ? static_cast<long long>(value.get<unsigned long long>())
                                : value.get<long long>();
    if (whole < low || whole > high) Refuse(where, range, value);
    return static_cast<int>(whole);
}

const json& ListOf(const json& value, const std::string& where, std::size_t count) {
    if (!value.is_array() || value.size() != count)
        Refuse(where, "must be a list of " + std::to_string(count) + " items", value);
    return value;
}

std::vector<double> Numbers(const json& value, const std::string& where, std::size_t count,
                            double low, double high) {
    std::vector<double> out;
    for (const json& item : ListOf(value, where, count))
        out.push_back(
            NumberIn(item, where + "item " + std::to_string(out.size()) + ": ", low, high));
    return out;
}

std::vector<int> Wholes(const json& value, const std::string& where, std::size_t count,
                        long long low, long long high) {
    std::vector<int> out;
    for (const json& item : ListOf(value, where, count))
        out.push_back(
            WholeIn(item, where + "item " + std::to_string(out.size()) + ": ", low, high));
    return out;
}

TrainSettings ReadSettings(const json& doc) {
    const std::string where = "field \"settings\": ";
    std::vector<const char*> keys = {
        "task",         "vocab",    "k",          "variants",     "causal",        "layers",
        "d_model",      "heads",    "mlp_ratio",  "train_len",    "min_train_len", "test_len",
        "batch",        "steps",    "eval_every", "eval_batches", "seed",          "learning_rate",
        "weight_decay", "clip_norm"};
    for (const PositionalKind kind : positional_kinds())
        for (const MethodOption& option : positional_method_info(kind).options)
            keys.push_back(option.key);
    OnlyKeys(doc, where, keys);
    const auto need = [&](const char* key) -> const json& { return Need(doc, where, key); };
    const auto whole = [&](const char* key, long long low, long long high) {
        return WholeIn(need(key), Field(where, key), low, high);
    };
    const auto number = [&](const char* key, double low, double high) {
        return NumberIn(need(key), Field(where, key), low, high);
    };
    TrainSettings s;
    try {
        if (!need("task").is_string()) throw InvalidArgument("must be text");
        s.task.task = train_task_from_name(need("task").get<std::string>());
    } catch (const InvalidArgument& e) {
        Refuse(Field(where, "task"), e.what(), need("task"));
    }
    s.task.vocab = whole("vocab", 2, 256);
    s.task.k = whole("k", 0, 64);
    const json& variants = need("variants");
    if (!variants.is_array() || variants.empty() || variants.size() > 6)
        Refuse(Field(where, "variants"), "must be a list of 1 to 6 names", variants);
    s.variants.clear();
    for (const json& name : variants) {
        const std::string at =
            Field(where, "variants") + "item " + std::to_string(s.variants.size()) + ": ";
        try {
            if (!name.is_string()) throw InvalidArgument("must be text");
            s.variants.push_back(positional_kind_from_name(name.get<std::string>()));
        } catch (const InvalidArgument& e) {
            Refuse(at, e.what(), name);
        }
        if (std::count(s.variants.begin(), s.variants.end(), s.variants.back()) > 1)
            Refuse(at, "is named twice", name);
    }
    if (!need("causal").is_boolean())
        Refuse(Field(where, "causal"), "must be true or false", need("causal"));
    s.causal = need("causal").get<bool>();
    s.layers = whole("layers", 1, 4);
    // A method's options, written by the runs that train it (runs from before an option have
    // none of it, and its default).
    for (const PositionalKind kind : positional_kinds())
        for (const MethodOption& option : positional_method_info(kind).options) {
            if (!doc.contains(option.key)) continue;
            s.method_options.*option.field =
                static_cast<int>(whole(option.key, option.min_value, option.max_value));
            if (std::count(s.variants.begin(), s.variants.end(), kind) == 0)
                Refuse(Field(where, option.key),
                       std::string("is ") + positional_kind_name(kind) +
                           "'s setting, and the run trains no " + positional_kind_name(kind) +
                           " (only its runs write it)",
                       need(option.key));
        }
    s.d_model = whole("d_model", 16, 128);
    s.heads = whole("heads", 1, 4);
    whole("mlp_ratio", 4, 4);
    s.train_len = whole("train_len", 1, 256);
    s.min_train_len = whole("min_train_len", 1, 256);
    s.test_len = whole("test_len", 1, 1024);
    s.batch = whole("batch", 1, 1024);
    s.steps = whole("steps", 1, 1000000);
    s.eval_every = whole("eval_every", 1, 1000000);
    s.eval_batches = whole("eval_batches", 1, 1000);
    const json& seed = need("seed");
    const std::string seed_text = seed.is_string() ? seed.get<std::string>() : std::string();
    if (seed_text.empty() || seed_text.size() > 20 ||
        seed_text.find_first_not_of("0123456789") != std::string::npos)
        Refuse(Field(where, "seed"), "must be a whole number written as text", seed);
    errno = 0;
    const unsigned long long seed_value = std::strtoull(seed_text.c_str(), nullptr, 10);
    if (errno == ERANGE) Refuse(Field(where, "seed"), "must be below 2^64", seed);
    s.seed = seed_value;
    s.optimizer.learning_rate = number("learning_rate", 1e-6, 1.0);
    s.optimizer.weight_decay = number("weight_decay", 0.0, 1.0);
    s.optimizer.clip_norm = number("clip_norm", 0.0, 1e6);
    try {
        validate_train_settings(s);
    } catch (const InvalidArgument& e) {
        throw RunProblem{where + e.what()};
    }
    if (s.eval_every != EvalEvery(s.steps))
        Refuse(Field(where, "eval_every"),
               "must be " + std::to_string(EvalEvery(s.steps)) + " for " + std::to_string(s.steps) +
                   " steps",
               need("eval_every"));
    return s;
}

VariantResult ReadVariant(const json& doc, const TrainSettings& s, std::size_t index,
                          int example_len) {
    const PositionalKind kind = s.variants[index];
    const std::string where =
        "variant " + std::to_string(index) + " (" + positional_kind_name(kind) + "): ";
    OnlyKeys(doc, where,
             {"pe", "loss", "accuracy_steps", "accuracy", "accuracy_by_length", "seconds",
              "attention", "prediction", "more_seeds"});
    const json& pe = Need(doc, where, "pe");
    if (!pe.is_string() || pe.get<std::string>() != positional_kind_name(kind))
        Refuse(Field(where, "pe"),
               std::string("must be \"") + positional_kind_name(kind) +
                   "\", the settings' variant at this place",
               pe);
    VariantResult v;
    v.variant = kind;
    const int loss_every = LossEvery(s.steps);
    v.loss = Numbers(Need(doc, where, "loss"), Field(where, "loss"),
                     static_cast<std::size_t>((s.steps + loss_every - 1) / loss_every), 0.0, 1e6);
    const json& steps = Need(doc, where, "accuracy_steps");
    if (!steps.is_array() || steps.empty() || steps.size() > kMaxAccuracyPoints)
        Refuse(Field(where, "accuracy_steps"),
               "must be a list of 1 to " + std::to_string(kMaxAccuracyPoints) + " steps", steps);
    v.accuracy_steps = Wholes(steps, Field(where, "accuracy_steps"), steps.size(), 1, s.steps);
    for (std::size_t k = 1; k < v.accuracy_steps.size(); ++k)
        if (v.accuracy_steps[k] <= v.accuracy_steps[k - 1])
            Refuse(Field(where, "accuracy_steps"), "must increase", steps);
    if (v.accuracy_steps.back() != s.steps)
        Refuse(Field(where, "accuracy_steps"), "must end at the last step", steps);
    v.accuracy = Numbers(Need(doc, where, "accuracy"), Field(where, "accuracy"),
                         v.accuracy_steps.size(), 0.0, 1.0);
    v.accuracy_by_length =
        Numbers(Need(doc, where, "accuracy_by_length"), Field(where, "accuracy_by_length"),
                test_lengths(s).size(), 0.0, 1.0);
    v.seconds = NumberIn(Need(doc, where, "seconds"), Field(where, "seconds"), 0.0, 1e9);
    if (const auto more = doc.find("more_seeds"); more != doc.end()) {
        const std::string at_more = Field(where, "more_seeds");
        if (!more->is_array() || more->empty() || more->size() > kMaxMoreSeeds)
            Refuse(at_more,
                   "must be a list of 1 to " + std::to_string(kMaxMoreSeeds) +
                       " lists (one per further seed)",
                   *more);
        for (std::size_t k = 0; k < more->size(); ++k)
            v.more_seeds.push_back(Numbers((*more)[k], at_more + "seed " + std::to_string(k) + ": ",
                                           test_lengths(s).size(), 0.0, 1.0));
    }
    const std::string at = Field(where, "attention");
    const json& layers =
        ListOf(Need(doc, where, "attention"), at, static_cast<std::size_t>(s.layers));
    const std::size_t cells = static_cast<std::size_t>(example_len) * example_len;
    for (std::size_t l = 0; l < layers.size(); ++l) {
        const std::string at_layer = at + "layer " + std::to_string(l) + ": ";
        const json& heads = ListOf(layers[l], at_layer, static_cast<std::size_t>(s.heads));
        v.attention.emplace_back();
        for (std::size_t h = 0; h < heads.size(); ++h) {
            const std::string at_head = at_layer + "head " + std::to_string(h) + ": ";
            std::vector<double> map = Numbers(heads[h], at_head, cells, 0.0, 1.0);
            for (int i = 0; i < example_len; ++i) {
                double sum = 0;
                for (int j = 0; j < example_len; ++j) {
                    const double w =
                        map[static_cast<std::size_t>(i) * static_cast<std::size_t>(example_len) +
                            static_cast<std::size_t>(j)];
                    sum += w;
                    if (s.causal && j > i && w != 0)
                        Refuse(at_head,
                               "row " + std::to_string(i) +
                                   " gives weight to a later key in a causal model",
                               w);
                }
                // Each weight is kept to 1e-4, so it moved by at most 5e-5, and a row of n keys
                // by n · 5e-5 (the 65 keys of token_at at k = 64: 3.25e-3), plus the float
                // rounding of the model's own sums.
                if (std::abs(sum - 1) > example_len * 5e-5 + 1e-6)
                    Refuse(at_head, "row " + std::to_string(i) + " must sum to 1", sum);
            }
            v.attention.back().push_back(std::move(map));
        }
    }
    v.prediction = Wholes(Need(doc, where, "prediction"), Field(where, "prediction"),
                          static_cast<std::size_t>(example_len), 0, s.task.vocab - 1);
    return v;
}

} // namespace

bool TrainRun::Complete() const {
    if (variants.size() != settings.variants.size()) return false;
    for (const VariantResult& v : variants)
        if (!v.Done()) return false;
    return true;
}

int TrainRun::TrainedLengthIndex() const {
    const std::vector<int> lengths = test_lengths(settings);
    const auto at = std::find(lengths.begin(), lengths.end(), settings.train_len);
    return static_cast<int>(at - lengths.begin());
}

int LossEvery(int steps) {
    return std::max(1, (steps + kMaxLossPoints - 1) / kMaxLossPoints);
}

int EvalEvery(int steps) {
    const int half = kMaxAccuracyPoints / 2;
    return std::max(25, (steps + half - 1) / half);
}

VariantResult VariantResultOf(const Trainer& trainer, int index, const TokenBatch& example) {
    const VariantCurves& curves = trainer.Curves().at(static_cast<std::size_t>(index));
    VariantResult v;
    v.variant = curves.variant;
    const int every = LossEvery(trainer.Settings().steps);
    for (std::size_t start = 0; start < curves.loss.size(); start += every) {
        const std::size_t end = std::min(curves.loss.size(), start + every);
        double sum = 0;
        for (std::size_t k = start; k < end; ++k)
            sum += curves.loss[k];
        v.loss.push_back(sum / static_cast<double>(end - start));
    }
    v.accuracy_steps = curves.accuracy_steps;
    v.accuracy = curves.accuracy;
    v.accuracy_by_length = curves.accuracy_by_length;
    v.seconds = curves.seconds;
    if (!v.Done()) return v;
    const TinyTransformer<float>& model = trainer.Model(index);
    const TransformerConfig& config = model.config();
    for (int l = 0; l < config.layers; ++l) {
        v.attention.emplace_back();
        for (int h = 0; h < config.heads; ++h) {
            const std::vector<float> map = model.attention(example.tokens, l, h);
            v.attention.back().emplace_back(map.begin(), map.end());
        }
    }
    const std::vector<float> logits = model.logits(example);
    const int vocab = config.vocab;
    for (int p = 0; p < example.length; ++p) {
        const float* row = logits.data() + static_cast<std::size_t>(p) * vocab;
        v.prediction.push_back(static_cast<int>(std::max_element(row, row + vocab) - row));
    }
    return v;
}

json TrainRunJson(const TrainRun& run) {
    const TrainSettings& s = run.settings;
    json variant_names = json::array();
    for (const PositionalKind kind : s.variants)
        variant_names.push_back(positional_kind_name(kind));
    json settings = {{"task", train_task_name(s.task.task)},
                     {"vocab", s.task.vocab},
                     {"k", s.task.k},
                     {"variants", variant_names},
                     {"causal", s.causal},
                     {"layers", s.layers},
                     {"d_model", s.d_model},
                     {"heads", s.heads},
                     {"mlp_ratio", 4},
                     {"train_len", s.train_len},
                     {"min_train_len", s.min_train_len},
                     {"test_len", s.test_len},
                     {"batch", s.batch},
                     {"steps", s.steps},
                     {"eval_every", s.eval_every},
                     {"eval_batches", s.eval_batches},
                     {"seed", std::to_string(s.seed)},
                     {"learning_rate", s.optimizer.learning_rate},
                     {"weight_decay", s.optimizer.weight_decay},
                     {"clip_norm", s.optimizer.clip_norm}};
    // Only the runs that train a method write its options, so the other runs keep their bytes.
    for (const PositionalKind kind : s.variants)
        for (const MethodOption& option : positional_method_info(kind).options)
            settings[option.key] = s.method_options.*option.field;
    json variants = json::array();
    for (const VariantResult& v : run.variants) {
        json loss = json::array();
        for (const double value : v.loss)
            loss.push_back(Significant(value, 6));
        json attention = json::array();
        for (const auto& layer : v.attention) {
            json heads = json::array();
            for (const auto& map : layer) {
                json weights = json::array();
                for (const double w : map)
                    weights.push_back(Rounded(w, 1e4));
                heads.push_back(weights);
            }
            attention.push_back(heads);
        }
        json variant = {{"pe", positional_kind_name(v.variant)},
                        {"loss", loss},
                        {"accuracy_steps", v.accuracy_steps},
                        {"accuracy", v.accuracy},
                        {"accuracy_by_length", v.accuracy_by_length},
                        {"seconds", Significant(v.seconds, 4)},
                        {"attention", attention},
                        {"prediction", v.prediction}};
        if (!v.more_seeds.empty()) variant["more_seeds"] = v.more_seeds;
        variants.push_back(variant);
    }
    return {{"format", "pelab-train"},
            {"version", 1},
            {"settings", settings},
            {"test_lengths", test_lengths(s)},
            {"example", {{"tokens", run.example.tokens}, {"targets", run.example.targets}}},
            {"variants", variants},
            {"seconds", Significant(run.seconds, 4)},
            {"tokens_per_second_per_thread", Significant(run.tokens_per_second_per_thread, 4)}};
}

namespace {

// Objects and lists of objects indented, one level per line; a list of numbers (or of lists of
// numbers: an attention map's rows) on one line, so the largest run stays a few MB instead of
// a line per weight.
bool IsNumberList(const json& value) {
    if (!value.is_array()) return false;
    return std::all_of(value.begin(), value.end(), [](const json& item) {
        return item.is_number() || item.is_string() || item.is_boolean() || item.is_null() ||
               (item.is_array() && IsNumberList(item));
    });
}

void WriteReadable(const json& value, int depth, std::string* out) {
    const std::string indent(static_cast<std::size_t>(depth) + 1, ' ');
    const std::string closing(static_cast<std::size_t>(depth), ' ');
    if (value.is_object() && !value.empty()) {
        *out += "{\n";
        std::size_t k = 0;
        for (const auto& field : value.items()) {
            *out += indent + json(field.key()).dump() + ": ";
            WriteReadable(field.value(), depth + 1, out);
            *out += ++k < value.size() ? ",\n" : "\n";
        }
        *out += closing + "}";
    } else if (value.is_array() && !value.empty() && !IsNumberList(value)) {
        *out += "[\n";
        for (std::size_t k = 0; k < value.size(); ++k) {
            *out += indent;
            WriteReadable(value[k], depth + 1, out);
            *out += k + 1 < value.size() ? ",\n" : "\n";
        }
        *out += closing + "]";
    } else {
        *out += value.dump(-1, ' ', false, json::error_handler_t::replace);
    }
}

} // namespace

std::string TrainRunText(const TrainRun& run) {
    std::string text;
    WriteReadable(TrainRunJson(run), 0, &text);
    return text + "\n";
}

bool IsTrainRunDocument(const json& doc) {
    return doc.is_object() && doc.contains("format") && doc["format"] == "pelab-train";
}

std::string NotARunReaderMessage(const std::string& kind, const std::string& path) {
    const std::string quoted = Excerpt(json(path), 200);
    return kind + " " + quoted + " is a training run (written by pelab train), not a " + kind +
           ": open it with File → Open or by dropping it on the window, or print its numbers with "
           "pelab readouts --run " +
           quoted;
}

std::string ReadTrainRun(const json& doc, TrainRun* out) {
    try {
        OnlyKeys(doc, "",
                 {"format", "version", "settings", "test_lengths", "example", "variants", "seconds",
                  "tokens_per_second_per_thread"});
        if (Need(doc, "", "format") != "pelab-train")
            Refuse(Field("", "format"), "must be \"pelab-train\"", doc["format"]);
        if (Need(doc, "", "version") != 1)
            Refuse(Field("", "version"), "must be 1 (a newer PE Lab wrote this run)",
                   doc["version"]);
        TrainRun run;
        run.settings = ReadSettings(Need(doc, "", "settings"));
        const TrainSettings& s = run.settings;
        const std::vector<int> lengths = test_lengths(s);
        if (Wholes(Need(doc, "", "test_lengths"), Field("", "test_lengths"), lengths.size(), 1,
                   1024) != lengths)
            Refuse(Field("", "test_lengths"), "must be the lengths the settings imply",
                   doc["test_lengths"]);
        const int length = example_length(s);
        const json& example = Need(doc, "", "example");
        OnlyKeys(example, Field("", "example"), {"tokens", "targets"});
        run.example.size = 1;
        run.example.length = length;
        run.example.tokens = Wholes(Need(example, Field("", "example"), "tokens"),
                                    Field(Field("", "example"), "tokens"),
                                    static_cast<std::size_t>(length), 0, s.task.vocab - 1);
        run.example.targets = Wholes(Need(example, Field("", "example"), "targets"),
                                     Field(Field("", "example"), "targets"),
                                     static_cast<std::size_t>(length), -1, s.task.vocab - 1);
        const json& variants =
            ListOf(Need(doc, "", "variants"), Field("", "variants"), s.variants.size());
        for (std::size_t k = 0; k < variants.size(); ++k) {
            run.variants.push_back(ReadVariant(variants[k], s, k, length));
            // Every variant was trained from the same seeds.
            if (run.variants.back().Seeds() != run.variants.front().Seeds())
                Refuse(Field("variant " + std::to_string(k) + " (" +
                                 positional_kind_name(s.variants[k]) + "): ",
                             "more_seeds"),
                       "must hold as many seeds as variant 0's (" +
                           std::to_string(run.variants.front().Seeds() - 1) + ")",
                       variants[k].value("more_seeds", json::array()));
        }
        run.seconds = NumberIn(Need(doc, "", "seconds"), Field("", "seconds"), 0.0, 1e9);
        run.tokens_per_second_per_thread =
            NumberIn(Need(doc, "", "tokens_per_second_per_thread"),
                     Field("", "tokens_per_second_per_thread"), 0.0, 1e12);
        *out = std::move(run);
        return {};
    } catch (const RunProblem& problem) {
        return problem.message;
    }
}

double VariantResult::MeanAt(std::size_t k) const {
    double sum = accuracy_by_length[k];
    for (const std::vector<double>& seed : more_seeds)
        sum += seed[k];
    return sum / Seeds();
}

double VariantResult::LowestAt(std::size_t k) const {
    double lowest = accuracy_by_length[k];
    for (const std::vector<double>& seed : more_seeds)
        lowest = std::min(lowest, seed[k]);
    return lowest;
}

double VariantResult::HighestAt(std::size_t k) const {
    double highest = accuracy_by_length[k];
    for (const std::vector<double>& seed : more_seeds)
        highest = std::max(highest, seed[k]);
    return highest;
}

const BuiltInTrainRun* FindBuiltInTrainRun(const std::string& name) {
    for (const BuiltInTrainRun& run : BuiltInTrainRuns())
        if (name == run.name) return &run;
    return nullptr;
}

} // namespace pelab
