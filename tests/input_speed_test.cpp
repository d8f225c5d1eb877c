// Every reader of a person's file answers a 1 MiB hostile input (hostile_json.h) within 2 s of CPU:
// ten times what the benchmark (bench/bench_input.cpp, `pelab_input_bench`) allows a release
// build; the sanitizer build (clang -O1 with sanitizers and libFuzzer's coverage, measured at
// 2.1 to 2.8 s for the many_keys input) gets 8 s. A quadratic parse (31 s for the first input
// once) fails both. The thread's CPU time, not the wall clock: the suite runs other work beside.
#include "hostile_json.h"
#include "io/json_input.h"
#include "io/lesson.h"
#include "io/quiz.h"
#include "shell/app.h"
#include "shell/file_menu.h"
#include "thread_cpu_time.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>

using namespace pelab;

namespace {

#if defined(__SANITIZE_ADDRESS__)
#define PELAB_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PELAB_TEST_SANITIZED 1
#endif
#endif
#ifdef PELAB_TEST_SANITIZED
constexpr double kMaxSeconds = 8.0;
#else
constexpr double kMaxSeconds = 2.0;
#endif

template <typename Work> double SecondsFor(Work&& work) {
    const double start = ThreadCpuSeconds();
    work();
    return ThreadCpuSeconds() - start;
}

} // namespace

TEST(InputSpeed, EveryReaderAnswersHostileMegabyteInputsQuickly) {
    App app;
    const nlohmann::json before = app.Document(false);
    for (const auto& input : hostile::Inputs()) {
        // Named references to the pair's parts: C++17 lambdas cannot capture structured bindings.
        const std::string& name = input.first;
        const std::string& text = input.second;
        ASSERT_LE(text.size(), kMaxInputBytes) << name;
        EXPECT_LT(SecondsFor([&] {
                      nlohmann::json doc;
                      (void)ParseJsonInput(text, &doc);
                  }),
                  kMaxSeconds)
            << name;
        EXPECT_LT(SecondsFor([&] { (void)app.scene.Apply(text); }), kMaxSeconds) << name;
        Lesson lesson;
        EXPECT_LT(SecondsFor([&] { (void)ParseLesson(text, app.scene, app.panels, &lesson); }),
                  kMaxSeconds)
            << name;
        Quiz quiz;
        EXPECT_LT(SecondsFor([&] { (void)ParseQuiz(text, app.scene, app.panels, &quiz); }),
                  kMaxSeconds)
            << name;
        // File → Open and a drop on the window: read, parse and apply, once.
        const std::string path = ::testing::TempDir() + "/pelab_hostile_" + name + ".json";
        std::FILE* file = std::fopen(path.c_str(), "wb");
        ASSERT_NE(file, nullptr);
        std::fwrite(text.data(), 1, text.size(), file);
        std::fclose(file);
        EXPECT_LT(SecondsFor([&] { (void)OpenFile(app, path); }), kMaxSeconds) << name;
        std::remove(path.c_str());
        app.scene.ApplyDocument(before);
        app.lesson = LessonPlayer{};
    }
}

// The lesson and quiz at their size limits are real documents: they are accepted, not merely
// refused fast.
TEST(InputSpeed, LargestLessonAndQuizAreAccepted) {
    App app;
    for (const auto& [name, text] : hostile::Inputs()) {
        if (name == "lesson_200_long_steps") {
            Lesson lesson;
            EXPECT_EQ(ParseLesson(text, app.scene, app.panels, &lesson), "");
            EXPECT_EQ(lesson.steps.size(), 200u);
        }
        if (name == "quiz_400_items") {
            Quiz quiz;
            EXPECT_EQ(ParseQuiz(text, app.scene, app.panels, &quiz), "");
            EXPECT_EQ(quiz.questions.size() + quiz.cards.size(), 400u);
        }
    }
}
