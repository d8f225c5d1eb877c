// pelab_input_bench — how long each reader of a person's file takes over 1 MiB hostile inputs
// (tests/hostile_json.h): the JSON parse alone, and the scene, lesson and quiz readers on top.
// Every input must be answered (accepted or refused) within 0.2 s on the project's 2-core
// machine; tests/input_speed_test.cpp allows ten times that.
//
//   build/bin/pelab_input_bench --benchmark_time_unit=ms
#include "hostile_json.h"
#include "io/json_input.h"
#include "io/lesson.h"
#include "io/quiz.h"
#include "shell/app.h"

#include <benchmark/benchmark.h>

#include <string>

namespace {

using pelab::App;

void Register() {
    for (const auto& [name, text] : pelab::hostile::Inputs()) {
        const std::string input = text;
        benchmark::RegisterBenchmark(("parse/" + name).c_str(), [input](benchmark::State& state) {
            for (auto _ : state) {
                nlohmann::json doc;
                benchmark::DoNotOptimize(pelab::ParseJsonInput(input, &doc));
            }
        })->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("scene/" + name).c_str(), [input](benchmark::State& state) {
            App app;
            for (auto _ : state)
                benchmark::DoNotOptimize(app.scene.Apply(input));
        })->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("lesson/" + name).c_str(), [input](benchmark::State& state) {
            App app;
            for (auto _ : state) {
                pelab::Lesson lesson;
                benchmark::DoNotOptimize(pelab::ParseLesson(input, app.scene, app.panels, &lesson));
            }
        })->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("quiz/" + name).c_str(), [input](benchmark::State& state) {
            App app;
            for (auto _ : state) {
                pelab::Quiz quiz;
                benchmark::DoNotOptimize(pelab::ParseQuiz(input, app.scene, app.panels, &quiz));
            }
        })->Unit(benchmark::kMillisecond);
    }
}

} // namespace

int main(int argc, char** argv) {
    Register();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
