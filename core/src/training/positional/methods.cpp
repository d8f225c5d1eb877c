// The method table: pelab/training/positional_methods.h's rows, each bound to its file's method,
// and the names the rest of PE Lab reads from it.
#include "pelab/base/error.h"
#include "positional/method.h"

namespace pelab {

namespace {

struct Row {
    PositionalKind kind;
    const char* name;
    bool in_default;
};

const std::vector<Row>& Rows() {
#define PELAB_POSITIONAL_ROW(enumerator, name, in_default)                                         \
    {PositionalKind::enumerator, name, in_default},
    static const std::vector<Row> rows = {PELAB_POSITIONAL_METHODS(PELAB_POSITIONAL_ROW)};
#undef PELAB_POSITIONAL_ROW
    return rows;
}

} // namespace

const std::vector<PositionalKind>& positional_kinds() {
    static const std::vector<PositionalKind> kinds = [] {
        std::vector<PositionalKind> all;
        for (const Row& row : Rows())
            all.push_back(row.kind);
        return all;
    }();
    return kinds;
}

const std::vector<PositionalKind>& default_positional_kinds() {
    static const std::vector<PositionalKind> kinds = [] {
        std::vector<PositionalKind> chosen;
        for (const Row& row : Rows())
            if (row.in_default) chosen.push_back(row.kind);
        return chosen;
    }();
    return kinds;
}

const char* positional_kind_name(PositionalKind kind) {
    return Rows().at(static_cast<std::size_t>(kind)).name;
}

std::string positional_kind_list() {
    std::string list;
    for (const Row& row : Rows())
        list += (list.empty() ? "" : ", ") + std::string(row.name);
    return list;
}

PositionalKind positional_kind_from_name(const std::string& name) {
    for (const Row& row : Rows())
        if (name == row.name) return row.kind;
    throw InvalidArgument("unknown positional encoding \"" + name + "\": one of " +
                          positional_kind_list());
}

bool positional_kind_causal_only(PositionalKind kind) {
    return trainer::MethodFor(kind).causal_only;
}

const PositionalMethodInfo& positional_method_info(PositionalKind kind) {
    static const std::vector<PositionalMethodInfo> infos = [] {
        std::vector<PositionalMethodInfo> all;
        for (const Row& row : Rows()) {
            const trainer::PositionalMethod& method = trainer::MethodFor(row.kind);
            all.push_back({row.kind, row.name, method.display_name, method.paper, row.in_default,
                           method.causal_only, method.options});
        }
        return all;
    }();
    return infos.at(static_cast<std::size_t>(kind));
}

std::string method_option_flag(const MethodOption& option) {
    std::string flag = std::string("--") + option.key;
    for (char& c : flag)
        if (c == '_') c = '-';
    return flag;
}

namespace trainer {

const PositionalMethod& MethodFor(PositionalKind kind) {
#define PELAB_POSITIONAL_METHOD(enumerator, name, in_default) enumerator##Method(),
    static const std::vector<PositionalMethod> methods = {
        PELAB_POSITIONAL_METHODS(PELAB_POSITIONAL_METHOD)};
#undef PELAB_POSITIONAL_METHOD
    return methods.at(static_cast<std::size_t>(kind));
}

} // namespace trainer

} // namespace pelab
