// The fixture of the CLI tests (cli_*_test.cpp): the real `pelab` binary run with arguments (no
// shell), its exit code, standard output and standard error, in a folder of its own per test.
// Values are checked against an independent long double computation (reference.h).
#pragma once

#include "reference.h"
#include "test_paths.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <thread>
#include <tuple>
#include <unistd.h>
#include <vector>
namespace fs = std::filesystem;

// Named, not anonymous: the five test files share one Cli fixture (gtest refuses a test suite
// whose tests use two different fixture classes, as an anonymous namespace per file would make).
namespace cli_test {

struct Result {
    int exit_code = -1;
    std::string out, err;
};

inline std::string ReadAll(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

class Cli : public ::testing::Test {
protected:
    void SetUp() override {
        dir = fs::temp_directory_path() /
              ("pelab_cli_" + std::to_string(::getpid()) + "_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }

    // Runs pelab with args (no shell: arguments pass through untouched); env_unset names
    // variables removed from the child's environment.
    Result Run(const std::vector<std::string>& args, const std::vector<std::string>& env_unset = {},
               const std::vector<std::pair<std::string, std::string>>& env_set = {},
               const std::string& stdout_to = "") {
        const fs::path out_path = stdout_to.empty() ? dir / "stdout.txt" : fs::path(stdout_to);
        const fs::path err_path = dir / "stderr.txt";
        const pid_t pid = fork();
        if (pid == 0) {
            for (const std::string& name : env_unset)
                unsetenv(name.c_str());
            for (const auto& [name, value] : env_set)
                setenv(name.c_str(), value.c_str(), 1);
            std::FILE* out = std::freopen(out_path.c_str(), "w", stdout);
            std::FILE* err = std::freopen(err_path.c_str(), "w", stderr);
            if (!out || !err) _exit(127);
            ExecPelab(args);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        Result r;
        r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        r.out = stdout_to.empty() ? ReadAll(out_path) : std::string();
        r.err = ReadAll(err_path);
        return r;
    }

    // In a forked child: becomes pelab with args (no shell), or exits 127.
    [[noreturn]] static void ExecPelab(const std::vector<std::string>& args) {
        std::vector<char*> argv;
        std::string binary = pelab_test::PelabBinary();
        argv.push_back(binary.data());
        std::vector<std::string> copy = args;
        for (std::string& a : copy)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(binary.c_str(), argv.data());
        _exit(127);
    }

    // A refused command: exit 2, one line on stderr mentioning `mention`, no output file.
    void ExpectUsageError(std::vector<std::string> args, const std::string& mention) {
        const fs::path target = dir / "must_not_exist.out";
        args.push_back("--out");
        args.push_back(target.string());
        const Result r = Run(args);
        std::string joined;
        for (const std::string& a : args)
            joined += a + " ";
        EXPECT_EQ(r.exit_code, 2) << joined << "\nstderr: " << r.err;
        EXPECT_NE(r.err.find(mention), std::string::npos) << joined << "\nstderr: " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
        EXPECT_FALSE(fs::exists(target)) << joined;
        EXPECT_TRUE(r.out.empty()) << joined;
    }

    fs::path dir;
};

} // namespace cli_test

using cli_test::Cli;
using cli_test::ReadAll;
using cli_test::Result;
