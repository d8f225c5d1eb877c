#include "pelab/training/train.h"

#include "pelab/base/draws.h"
#include "pelab/base/error.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace pelab {

TransformerConfig ModelConfig(const TrainSettings& s, PositionalKind kind) {
    TransformerConfig config;
    config.vocab = s.task.vocab;
    config.d_model = s.d_model;
    config.layers = s.layers;
    config.heads = s.heads;
    config.max_len = s.test_len;
    config.causal = s.causal;
    config.positional = kind;
    config.t5_buckets = 32;
    config.t5_max_distance = std::max(128, s.test_len);
    config.options = s.method_options;
    return config;
}

TrainSettings quick_demo_settings() {
    TrainSettings settings;
    settings.task.task = TrainTask::Reverse;
    settings.variants = {PositionalKind::None, PositionalKind::Sinusoidal};
    settings.steps = 150;
    settings.test_len = 32;
    return settings;
}

void validate_train_settings(const TrainSettings& s) {
    const auto in = [](const char* name, long long value, long long low, long long high) {
        if (value < low || value > high)
            throw InvalidArgument(std::string(name) + " must be in [" + std::to_string(low) + ", " +
                                  std::to_string(high) + "] (got " + std::to_string(value) + ")");
    };
    in("vocab", s.task.vocab, kTrainMinVocab, kTrainMaxVocab);
    in("k", s.task.k, 0, kTrainMaxK);
    in("layers", s.layers, 1, kTrainMaxLayers);
    in("heads", s.heads, 1, kTrainMaxHeads);
    in("d_model", s.d_model, kTrainMinDModel, kTrainMaxDModel);
    if (s.task.task == TrainTask::WordBack) {
        if (s.task.k > kTrainMaxWordBackK)
            throw InvalidArgument("word_back looks at most " + std::to_string(kTrainMaxWordBackK) +
                                  " words back (k must be in [0, " +
                                  std::to_string(kTrainMaxWordBackK) + "], got " +
                                  std::to_string(s.task.k) + ")");
        if (s.task.vocab < kTrainMinWordBackVocab)
            throw InvalidArgument(
                "word_back needs a vocab of at least " + std::to_string(kTrainMinWordBackVocab) +
                " (the separator 0 and two word tokens; got " + std::to_string(s.task.vocab) +
                ", where every answer is token 1)");
    }
    in("train_len", s.train_len, task_shortest_length(s.task), kTrainMaxTrainLen);
    in("min_train_len", s.min_train_len, task_shortest_length(s.task), s.train_len);
    in("test_len", s.test_len, s.train_len, kTrainMaxTestLen);
    in("batch", s.batch, 1, kTrainMaxBatch);
    in("steps", s.steps, 1, kTrainMaxSteps);
    in("eval_every", s.eval_every, 1, 1000000);
    in("eval_batches", s.eval_batches, 1, 1000);
    for (const PositionalKind kind : positional_kinds())
        for (const MethodOption& option : positional_method_info(kind).options)
            in(option.key, s.method_options.*option.field, option.min_value, option.max_value);
    if (s.variants.empty()) throw InvalidArgument("no positional variant to train");
    for (std::size_t k = 0; k < s.variants.size(); ++k) {
        if (std::count(s.variants.begin(), s.variants.begin() + static_cast<long>(k),
                       s.variants[k]) > 0)
            throw InvalidArgument(std::string("the variant ") +
                                  positional_kind_name(s.variants[k]) + " is named twice");
        validate_transformer_config(ModelConfig(s, s.variants[k]));
    }
}

std::vector<int> test_lengths(const TrainSettings& s) {
    std::vector<int> lengths;
    if (s.train_len / 2 >= task_shortest_length(s.task) && s.train_len / 2 < s.train_len)
        lengths.push_back(s.train_len / 2);
    for (int times = 1; times <= 4; ++times)
        if (s.train_len * times < s.test_len) lengths.push_back(s.train_len * times);
    lengths.push_back(s.test_len);
    return lengths;
}

int example_length(const TrainSettings& s) {
    // At least the task's shortest (token_at at k = 20 needs 21 tokens), never past train_len.
    return std::max(std::min(s.train_len, 16), task_shortest_length(s.task));
}

TokenBatch train_example(const TrainSettings& s) {
    std::mt19937_64 random(s.seed * 0xD1B54A32D192ED03ull + 7);
    return make_task_batch(s.task, 1, example_length(s), random, s.causal);
}

Trainer::Trainer(const TrainSettings& settings) : settings_(settings) {
    validate_train_settings(settings);
    for (const PositionalKind kind : settings.variants) {
        // The same seed for every variant: the shared tensors start equal, and every variant
        // sees the same batches in the same order.
        models_.emplace_back(ModelConfig(settings, kind), settings.seed);
        optimizers_.emplace_back(models_.back().parameters().size(), settings.optimizer);
        streams_.emplace_back(settings.seed * 0x9E3779B97F4A7C15ull + 1);
        VariantCurves curves;
        curves.variant = kind;
        curves_.push_back(curves);
    }
}

bool Trainer::Done() const {
    return variant_ >= static_cast<int>(models_.size());
}

int Trainer::StepsTrained() const {
    return variant_ * settings_.steps + (Done() ? 0 : std::min(step_, settings_.steps));
}

double Trainer::ForwardCost(int length) const {
    // Per token and layer: the projections and the MLP (12 d² multiply-adds: 4 d² for Q, K, V
    // and the output, 8 d² for the MLP at ratio 4) and the attention over `length` keys (2 L d:
    // the scores and the weighted sum). The layer count is the same everywhere and drops out.
    const double d = settings_.d_model;
    return static_cast<double>(settings_.batch) * length * (12 * d * d + 2.0 * length * d);
}

double Trainer::WorkOfVariant(int steps_done, std::size_t lengths_measured,
                              int batches_measured) const {
    // A training step is a forward and a backward pass (about three forwards) over a length
    // drawn from [min_train_len, train_len]; every eval_every steps, one batch at train_len; the
    // final measurement, eval_batches batches at each test length.
    double mean_step = 0;
    for (int length = settings_.min_train_len; length <= settings_.train_len; ++length)
        mean_step += 3 * ForwardCost(length);
    mean_step /= settings_.train_len - settings_.min_train_len + 1;
    const int evals = steps_done / settings_.eval_every +
                      (steps_done == settings_.steps && steps_done % settings_.eval_every ? 1 : 0);
    double work = steps_done * mean_step + evals * ForwardCost(settings_.train_len);
    const std::vector<int> lengths = test_lengths(settings_);
    for (std::size_t k = 0; k < lengths_measured && k < lengths.size(); ++k)
        work += settings_.eval_batches * ForwardCost(lengths[k]);
    if (lengths_measured < lengths.size())
        work += batches_measured * ForwardCost(lengths[lengths_measured]);
    return work;
}

double Trainer::Progress() const {
    const std::size_t all_lengths = test_lengths(settings_).size();
    const double per_variant = WorkOfVariant(settings_.steps, all_lengths, 0);
    const double total = per_variant * static_cast<double>(models_.size());
    if (Done()) return 1.0;
    const bool measuring = step_ >= settings_.steps;
    const double current = WorkOfVariant(step_, measuring ? measuring_.length_index : 0,
                                         measuring ? measuring_.batch : 0);
    return std::min(1.0, (variant_ * per_variant + current) / total);
}

const TinyTransformer<float>& Trainer::Model(int variant) const {
    return models_.at(static_cast<std::size_t>(variant));
}

std::uint64_t Trainer::LengthSeed(int length) const {
    return settings_.seed ^ (0xA5A5A5A5ull * static_cast<std::uint64_t>(length));
}

void Trainer::ScoreBatch(const TinyTransformer<float>& model, int length, std::mt19937_64& random,
                         long* right, long* scored) const {
    const TokenBatch batch =
        make_task_batch(settings_.task, settings_.batch, length, random, settings_.causal);
    const std::vector<float> logits = model.logits(batch);
    const int vocab = settings_.task.vocab;
    for (std::size_t k = 0; k < batch.targets.size(); ++k) {
        if (batch.targets[k] < 0) continue;
        const float* row = logits.data() + k * static_cast<std::size_t>(vocab);
        const int guess = static_cast<int>(std::max_element(row, row + vocab) - row);
        *right += guess == batch.targets[k] ? 1 : 0;
        ++*scored;
    }
}

double Trainer::Accuracy(const TinyTransformer<float>& model, int length, int batches) const {
    std::mt19937_64 random(LengthSeed(length));
    long right = 0, scored = 0;
    for (int b = 0; b < batches; ++b)
        ScoreBatch(model, length, random, &right, &scored);
    return scored > 0 ? static_cast<double>(right) / static_cast<double>(scored) : 0.0;
}

void Trainer::MeasureOneBatch() {
    const std::vector<int> lengths = test_lengths(settings_);
    const auto v = static_cast<std::size_t>(variant_);
    Measuring& m = measuring_;
    if (m.batch == 0) {
        // A new length: the same sequences Accuracy would draw for it.
        if (m.length_index == 0) curves_[v].accuracy_by_length.clear();
        m.random.seed(LengthSeed(lengths[m.length_index]));
        m.right = m.scored = 0;
    }
    if (settings_.eval_batches > 0)
        ScoreBatch(models_[v], lengths[m.length_index], m.random, &m.right, &m.scored);
    if (++m.batch < settings_.eval_batches) return;
    curves_[v].accuracy_by_length.push_back(
        m.scored > 0 ? static_cast<double>(m.right) / static_cast<double>(m.scored) : 0.0);
    m.batch = 0;
    if (++m.length_index < lengths.size()) return;
    m.length_index = 0;
    ++variant_;
    step_ = 0;
}

int Trainer::Step(int steps) {
    int done = 0;
    while (done < steps && !Done() && !Cancelled()) {
        if (step_ >= settings_.steps) {
            MeasureOneBatch(); // the variant is trained: one batch of its measurement, no more
            return done;
        }
        const std::size_t v = static_cast<std::size_t>(variant_);
        TinyTransformer<float>& model = models_[v];
        VariantCurves& curves = curves_[v];
        const auto start = std::chrono::steady_clock::now();
        std::mt19937_64& random = streams_[v];
        const int length = draw_between(random, settings_.min_train_len, settings_.train_len);
        const TokenBatch batch =
            make_task_batch(settings_.task, settings_.batch, length, random, settings_.causal);
        std::vector<float> gradient;
        const float loss = model.loss(batch, &gradient);
        optimizers_[v].step(model.parameters(), gradient);
        curves.loss.push_back(loss);
        curves.seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        ++step_;
        ++done;
        if (step_ % settings_.eval_every == 0 || step_ == settings_.steps) {
            curves.accuracy_steps.push_back(step_);
            curves.accuracy.push_back(Accuracy(model, settings_.train_len, 1));
        }
    }
    return done;
}

} // namespace pelab
