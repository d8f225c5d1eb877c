#include "models/config_fields.h"

#include <cmath>

namespace pelab::detail {

using nlohmann::json;

std::string Got(const json& value) {
    std::string text = value.dump(-1, ' ', true, json::error_handler_t::replace);
    if (text.size() > 40) text = text.substr(0, 40) + "…";
    return text;
}

const json* First(const json& object, std::initializer_list<const char*> names,
                  const char** which) {
    for (const char* name : names) {
        const auto at = object.find(name);
        if (at != object.end() && !at->is_null()) {
            *which = name;
            return &*at;
        }
    }
    return nullptr;
}

Status Whole(const json& object, std::initializer_list<const char*> names, long long low,
             long long high, long long* out) {
    const char* name = nullptr;
    const json* value = First(object, names, &name);
    if (value == nullptr) return {};
    const bool whole = value->is_number_integer() ||
                       (value->is_number_float() && std::isfinite(value->get<double>()) &&
                        std::floor(value->get<double>()) == value->get<double>() &&
                        std::fabs(value->get<double>()) < 9e15);
    const double number = whole ? value->get<double>() : 0;
    if (!whole || number < static_cast<double>(low) || number > static_cast<double>(high))
        return "config field \"" + std::string(name) + "\": must be a whole number in [" +
               std::to_string(low) + ", " + std::to_string(high) + "] (got " + Got(*value) + ")";
    *out = static_cast<long long>(number);
    return {};
}

Status WholeInt(const json& object, std::initializer_list<const char*> names, int low, int high,
                int* out) {
    long long value = *out;
    if (Status error = Whole(object, names, low, high, &value); !error.ok()) return error;
    *out = static_cast<int>(value);
    return {};
}

Status Number(const json& object, std::initializer_list<const char*> names, double low, double high,
              bool low_open, double* out, bool* given) {
    const char* name = nullptr;
    const json* value = First(object, names, &name);
    if (value == nullptr) return {};
    const double number = value->is_number() ? value->get<double>() : 0;
    if (!value->is_number() || !std::isfinite(number) || number > high ||
        (low_open ? number <= low : number < low))
        return "config field \"" + std::string(name) + "\": must be a number in " +
               (low_open ? "(" : "[") + json(low).dump() + ", " + json(high).dump() + "] (got " +
               Got(*value) + ")";
    *out = number;
    if (given) *given = true;
    return {};
}

Status Boolean(const json& object, const char* name, bool* out) {
    const auto at = object.find(name);
    if (at == object.end() || at->is_null()) return {};
    if (!at->is_boolean())
        return "config field \"" + std::string(name) + "\": must be true or false (got " +
               Got(*at) + ")";
    *out = at->get<bool>();
    return {};
}

Status Text(const json& object, const char* name, std::string* out) {
    const auto at = object.find(name);
    if (at == object.end() || at->is_null()) return {};
    if (!at->is_string() || at->get<std::string>().size() > 200)
        return "config field \"" + std::string(name) + "\": must be text (got " + Got(*at) + ")";
    *out = at->get<std::string>();
    return {};
}

Status Inside(const Status& problem, const std::string& where) {
    if (problem.ok()) return problem;
    const std::string head = "config field \"";
    std::string text = problem.message();
    if (text.rfind(head, 0) == 0) text.insert(head.size(), where + ".");
    return text;
}

Status WholeList(const json& object, const char* name, long long low, long long high,
                 std::size_t max_items, std::vector<long long>* out) {
    const auto at = object.find(name);
    if (at == object.end() || at->is_null()) return {};
    const std::string message = "config field \"" + std::string(name) +
                                "\": must be a list of at most " + std::to_string(max_items) +
                                " whole numbers in [" + std::to_string(low) + ", " +
                                std::to_string(high) + "]";
    if (!at->is_array() || at->size() > max_items) return message + " (got " + Got(*at) + ")";
    std::vector<long long> values;
    for (const json& item : *at) {
        const json holder = {{"item", item}};
        long long value = 0;
        if (!item.is_number() || !Whole(holder, {"item"}, low, high, &value).ok())
            return message + " (got " + Got(item) + " in it)";
        values.push_back(value);
    }
    *out = std::move(values);
    return {};
}

Status TextList(const json& object, const char* name, std::size_t max_items,
                std::vector<std::string>* out) {
    const auto at = object.find(name);
    if (at == object.end() || at->is_null()) return {};
    const std::string message = "config field \"" + std::string(name) + "\": must be a list of " +
                                "at most " + std::to_string(max_items) + " names";
    if (!at->is_array() || at->size() > max_items) return message + " (got " + Got(*at) + ")";
    std::vector<std::string> values;
    for (const json& item : *at) {
        if (!item.is_string() || item.get<std::string>().size() > 200)
            return message + " (got " + Got(item) + " in it)";
        values.push_back(item.get<std::string>());
    }
    *out = std::move(values);
    return {};
}

} // namespace pelab::detail
