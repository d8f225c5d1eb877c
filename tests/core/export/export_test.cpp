// The export formats read back exactly, and files are replaced atomically.
#include "pelab/base/error.h"
#include "pelab/export/export.h"
#include "reference.h"
#include "status_text.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <thread>
#include <unistd.h>

using namespace pelab;
namespace fs = std::filesystem;

namespace {
fs::path FreshDir(const char* name) {
    fs::path dir = fs::temp_directory_path() /
                   ("pelab_test_" + std::string(name) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}
std::string ReadAll(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}
} // namespace

TEST(Export, CsvRoundTripsEveryFloatExactly) {
    const PeExportInfo info{37, 12, 10000, Layout::Interleaved};
    const auto m = pe_matrix(info.max_len, info.d_model, info.base);
    std::ostringstream out;
    write_pe_csv(out, info, m.data());
    std::istringstream in(out.str());
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line.rfind("pos,d0,d1,", 0), 0u);
    int row = 0;
    while (std::getline(in, line)) {
        std::istringstream cells(line);
        std::string cell;
        std::getline(cells, cell, ',');
        EXPECT_EQ(std::stoi(cell), row);
        for (int dim = 0; dim < info.d_model; ++dim) {
            ASSERT_TRUE(std::getline(cells, cell, ','));
            EXPECT_EQ(std::strtof(cell.c_str(), nullptr), m[row * info.d_model + dim]);
        }
        ++row;
    }
    EXPECT_EQ(row, info.max_len);
}

TEST(Export, NpyHeaderAndDataFollowNumpyFormat) {
    const PeExportInfo info{5, 6, 10000, Layout::Interleaved};
    const auto m = pe_matrix(info.max_len, info.d_model, info.base);
    std::ostringstream out;
    write_pe_npy(out, info, m.data());
    const std::string bytes = out.str();
    ASSERT_GE(bytes.size(), 10u);
    EXPECT_EQ(bytes.substr(0, 6), std::string("\x93NUMPY"));
    EXPECT_EQ(bytes[6], 1);
    EXPECT_EQ(bytes[7], 0);
    const std::size_t header_length =
        static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    EXPECT_EQ((10 + header_length) % 64, 0u);
    const std::string header = bytes.substr(10, header_length);
    EXPECT_NE(header.find("'descr': '<f4'"), std::string::npos);
    EXPECT_NE(header.find("'fortran_order': False"), std::string::npos);
    EXPECT_NE(header.find("'shape': (5, 6)"), std::string::npos);
    EXPECT_EQ(header.back(), '\n');
    ASSERT_EQ(bytes.size(), 10 + header_length + 5 * 6 * 4);
    float value = 0;
    std::memcpy(&value, bytes.data() + 10 + header_length + (1 * 6 + 0) * 4, 4);
    EXPECT_NEAR(value, static_cast<double>(reference::pe(1, 0, 6, 10000)), 1e-7); // sin(1)
}

TEST(Export, JsonHoldsParametersAndValues) {
    const PeExportInfo info{4, 4, 10000, Layout::Concatenated};
    const auto m = pe_matrix(4, 4, 10000, Layout::Concatenated);
    std::ostringstream out;
    write_pe_json(out, info, m.data());
    const nlohmann::json doc = nlohmann::json::parse(out.str());
    EXPECT_EQ(doc["d_model"], 4);
    EXPECT_EQ(doc["layout"], "concatenated");
    ASSERT_EQ(doc["values"].size(), 4u);
    // Concatenated: [sin ω0 p, sin ω1 p, cos ω0 p, cos ω1 p]; at pos 1: sin 1, sin 0.01, ….
    EXPECT_NEAR(doc["values"][1][0].get<double>(), 0.841470985, 1e-7);
    EXPECT_NEAR(doc["values"][1][1].get<double>(), 0.009999833, 1e-7);
    EXPECT_NEAR(doc["values"][1][2].get<double>(), 0.540302306, 1e-7);
}

TEST(Export, AttentionJsonHasEverySpecKey) {
    OrderDemoOptions options;
    const std::string text =
        attention_json(run_order_demo("dog bites man", "man bites dog", options), options);
    const nlohmann::json doc = nlohmann::json::parse(text);
    for (const char* key : {"tokens_a", "tokens_b", "vocab", "x_a", "x_b", "scores_a", "scores_b",
                            "weights_a", "weights_b", "same_up_to_reordering", "max_reorder_diff"})
        EXPECT_TRUE(doc.contains(key)) << key;
    EXPECT_EQ(doc["vocab"], (std::vector<std::string>{"dog", "bites", "man"}));
    EXPECT_FALSE(doc["same_up_to_reordering"].get<bool>());
}

TEST(Export, AtomicWriteReplacesTheFileWhole) {
    const fs::path dir = FreshDir("atomic");
    const fs::path target = dir / "out.csv";
    write_file_atomically(target.string(), [](std::ostream& out) { out << "first\n"; });
    EXPECT_EQ(ReadAll(target), "first\n");
    write_file_atomically(target.string(), [](std::ostream& out) { out << "second\n"; });
    EXPECT_EQ(ReadAll(target), "second\n");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
    fs::remove_all(dir);
}

TEST(Export, FailedWriteLeavesOldFileAndNoTemporary) {
    const fs::path dir = FreshDir("failed");
    const fs::path target = dir / "out.csv";
    write_file_atomically(target.string(), [](std::ostream& out) { out << "keep me\n"; });
    EXPECT_THROW(write_file_atomically(target.string(),
                                       [](std::ostream& out) {
                                           out << "half";
                                           throw IoError("simulated failure mid-write");
                                       }),
                 IoError);
    EXPECT_EQ(ReadAll(target), "keep me\n");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
    fs::remove_all(dir);
}

TEST(Export, MissingFolderIsAnIoError) {
    EXPECT_THROW(write_file_atomically("/nonexistent-pelab-dir/x.csv",
                                       [](std::ostream& out) { out << "x"; }),
                 IoError);
}

// Regression (reliability issue): as root, `--out /dev/null` renamed a temporary file over the
// device node and turned /dev/null into a 181-byte regular file. Special files are written in
// place. The device here is a private copy of /dev/null's node (made with mknod when root), so
// a regression cannot damage the machine's own /dev/null.
TEST(Export, CharacterDeviceIsWrittenInPlaceNeverReplaced) {
    const fs::path dir = FreshDir("device");
    const fs::path device = dir / "null";
    if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
        GTEST_SKIP() << "mknod needs root: " << std::strerror(errno);
    EXPECT_EQ(check_writable(device.string()), "");
    write_file_atomically(device.string(), [](std::ostream& out) { out << "pos,d0\n0,0\n"; });
    struct stat info {};
    ASSERT_EQ(::lstat(device.c_str(), &info), 0);
    EXPECT_TRUE(S_ISCHR(info.st_mode)) << "the device node was replaced by a regular file";
    EXPECT_EQ(info.st_rdev, makedev(1, 3));
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
    fs::remove_all(dir);
}

TEST(Export, DevNullAndDevFullAreCheckedAsDevices) {
    EXPECT_EQ(check_writable("/dev/null"), ""); // writable by anyone, though /dev is not
    EXPECT_THROW(write_file_atomically("/dev/full", [](std::ostream& out) { out << "x\n"; }),
                 IoError);
    struct stat info {};
    ASSERT_EQ(::stat("/dev/full", &info), 0);
    EXPECT_TRUE(S_ISCHR(info.st_mode));
}

TEST(Export, FifoIsWrittenInPlace) {
    const fs::path dir = FreshDir("fifo");
    const fs::path fifo = dir / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string received;
    std::thread reader([&] { received = ReadAll(fifo); });
    write_file_atomically(fifo.string(), [](std::ostream& out) { out << "through the pipe\n"; });
    reader.join();
    EXPECT_EQ(received, "through the pipe\n");
    struct stat info {};
    ASSERT_EQ(::lstat(fifo.c_str(), &info), 0);
    EXPECT_TRUE(S_ISFIFO(info.st_mode));
    fs::remove_all(dir);
}

TEST(Export, ReplacingKeepsPermissionsAndFollowsLinks) {
    const fs::path dir = FreshDir("perm");
    const fs::path target = dir / "private.csv";
    std::ofstream(target) << "old\n";
    fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write);
    write_file_atomically(target.string(), [](std::ostream& out) { out << "new\n"; });
    EXPECT_EQ(ReadAll(target), "new\n");
    EXPECT_EQ(fs::status(target).permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write); // 0600 stays 0600
    const fs::path link = dir / "link.csv";
    fs::create_symlink(target, link);
    write_file_atomically(link.string(), [](std::ostream& out) { out << "via link\n"; });
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(ReadAll(target), "via link\n");
    fs::remove_all(dir);
}

// A name PE Lab chose itself (a handout's pictures): a link found there is replaced, its target
// untouched, and a FIFO is refused at once instead of blocking until a reader comes.
TEST(Export, OwnNamesReplaceALinkAndRefuseAFifo) {
    const fs::path dir = FreshDir("own");
    const fs::path victim = dir / "someone_elses.txt";
    std::ofstream(victim) << "theirs\n";
    const fs::path link = dir / "step-01.png";
    fs::create_symlink(victim, link);
    write_file_atomically(
        link.string(), [](std::ostream& out) { out << "ours\n"; }, ExistingName::kReplace);
    EXPECT_FALSE(fs::is_symlink(link));
    EXPECT_EQ(ReadAll(link), "ours\n");
    EXPECT_EQ(ReadAll(victim), "theirs\n");
    const fs::path dangling = dir / "index.html";
    fs::create_symlink(dir / "nowhere" / "x", dangling);
    write_file_atomically(
        dangling.string(), [](std::ostream& out) { out << "page\n"; }, ExistingName::kReplace);
    EXPECT_EQ(ReadAll(dangling), "page\n");
    EXPECT_FALSE(fs::exists(dir / "nowhere"));
    const fs::path fifo = dir / "step-02.png";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    try {
        write_file_atomically(
            fifo.string(), [](std::ostream& out) { out << "x"; }, ExistingName::kReplace);
        ADD_FAILURE() << "a FIFO at a name of our own was written";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("FIFO"), std::string::npos) << e.what();
    }
    struct stat info {};
    ASSERT_EQ(::lstat(fifo.c_str(), &info), 0);
    EXPECT_TRUE(S_ISFIFO(info.st_mode));
    fs::create_directories(dir / "step-03.png");
    EXPECT_THROW(write_file_atomically((dir / "step-03.png").string(),
                                       [](std::ostream& out) { out << "x"; },
                                       ExistingName::kReplace),
                 IoError);
    // A plain file of ours keeps its permissions when replaced, as with kFollow.
    const fs::path plain = dir / "step-04.png";
    std::ofstream(plain) << "old\n";
    fs::permissions(plain, fs::perms::owner_read | fs::perms::owner_write);
    write_file_atomically(
        plain.string(), [](std::ostream& out) { out << "new\n"; }, ExistingName::kReplace);
    EXPECT_EQ(fs::status(plain).permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write);
    fs::remove_all(dir);
}

TEST(Export, LongNamesDoNotOverflowTheTemporaryName) {
    const fs::path dir = FreshDir("long");
    const fs::path target = dir / (std::string(250, 'n') + ".csv"); // 254 characters
    write_file_atomically(target.string(), [](std::ostream& out) { out << "ok\n"; });
    EXPECT_EQ(ReadAll(target), "ok\n");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
    fs::remove_all(dir);
}

TEST(Export, CheckWritableSaysWhy) {
    EXPECT_NE(check_writable("/nonexistent-pelab-dir/x.csv").message().find("does not exist"),
              std::string::npos);
    EXPECT_NE(check_writable("/tmp").message().find("folder"), std::string::npos);
    EXPECT_EQ(check_writable((fs::temp_directory_path() / "pelab-new-file.csv").string()), "");
}
