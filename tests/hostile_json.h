// hostile_json.h — 1 MiB inputs built to make a JSON reader slow: many tiny objects, one huge
// text, one object with tens of thousands of keys, deep lists side by side, long numbers,
// escapes, and lessons and quizzes at their size limits. Shared by the input-speed test
// (tests/input_speed_test.cpp) and the benchmark (bench/bench_input.cpp), so both time the
// same inputs.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace pelab::hostile {

constexpr std::size_t kBytes = 1000 * 1000; // under the 1 MiB input limit

// text repeated until the document (prefix + items + suffix) is about kBytes long.
inline std::string Repeat(const std::string& prefix, const std::string& item,
                          const std::string& separator, const std::string& suffix) {
    std::string out = prefix;
    while (out.size() + item.size() + separator.size() + suffix.size() < kBytes) {
        if (out.size() > prefix.size()) out += separator;
        out += item;
    }
    return out + suffix;
}

/// (name, document) pairs; every document is at most kBytes long.
inline std::vector<std::pair<std::string, std::string>> Inputs() {
    std::vector<std::pair<std::string, std::string>> inputs;
    inputs.emplace_back("empty_objects", Repeat("{\"a\":[", "{}", ",", "]}"));
    inputs.emplace_back("empty_objects_under_count",
                        Repeat("{\"a\":[", "{\"xxxxxxxxxxxxxxxxxxxxxx\":{}}", ",", "]}"));
    inputs.emplace_back("one_long_text",
                        "{\"teach_back_text\":\"" + std::string(kBytes - 40, 'w') + "\"}");
    std::string keys = "{";
    for (int k = 0; keys.size() < kBytes - 40; ++k)
        keys += (k ? ",\"" : "\"") + std::to_string(k) + "\":0";
    inputs.emplace_back("many_keys", keys + "}");
    const std::string deep = std::string(31, '[') + std::string(31, ']');
    inputs.emplace_back("deep_lists_side_by_side", Repeat("[", deep, ",", "]"));
    inputs.emplace_back("long_number", "{\"base\":1." + std::string(kBytes - 20, '0') + "1}");
    inputs.emplace_back("escapes", Repeat("{\"teach_back_text\":\"", "\\u00e9\\n\\\"", "", "\"}"));
    std::string lesson = "{\"format\":\"pelab-lesson\",\"title\":\"t\",\"steps\":[";
    for (int k = 0; k < 200; ++k)
        lesson += std::string(k ? "," : "") + "{\"caption\":\"" + std::string(160, 'c') +
                  "\",\"notes\":\"" + std::string(3000, 'n') +
                  "\",\"scene\":{\"d_model\":64,\"pair\":3,\"pos_a\":" + std::to_string(k) +
                  "},\"highlight\":[\"compare.dot_product\"]}";
    inputs.emplace_back("lesson_200_long_steps", lesson + "]}");
    std::string quiz = "{\"format\":\"pelab-quiz\",\"title\":\"q\",\"questions\":[";
    for (int k = 0; k < 200; ++k)
        quiz += std::string(k ? "," : "") + "{\"question\":\"" + std::string(1500, 'q') +
                "\",\"choices\":[\"a\",\"b\"],\"answer\":1,\"explanation\":\"e\",\"show\":"
                "{\"present\":\"compare\",\"scene\":{\"d_model\":64,\"pair\":2}}}";
    quiz += "],\"cards\":[";
    for (int k = 0; k < 200; ++k)
        quiz += std::string(k ? "," : "") + "{\"front\":\"" + std::string(800, 'f') +
                "\",\"back\":\"b\",\"show\":{\"present\":\"waves\"}}";
    inputs.emplace_back("quiz_400_items", quiz + "]}");
    return inputs;
}

} // namespace pelab::hostile
