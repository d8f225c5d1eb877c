// ByteFile (pelab/models/checkpoint.h): a read-only file read with pread, never mapped.
#include "base/format.h"
#include "pelab/models/checkpoint.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace pelab {

using detail::shown_name;

ByteFile::~ByteFile() {
    if (descriptor_ >= 0) close(descriptor_);
}

Status ByteFile::Open(const std::string& path) {
    path_ = path;
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
    descriptor_ = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (descriptor_ < 0) return "cannot open " + shown_name(path) + ": " + std::strerror(errno);
    struct stat status {};
    if (fstat(descriptor_, &status) != 0)
        return "cannot read " + shown_name(path) + ": " + std::strerror(errno);
    if (!S_ISREG(status.st_mode))
        return shown_name(path) + " is not a regular file (a folder, a device or a pipe)";
    size_ = static_cast<std::uint64_t>(status.st_size);
    return {};
}

Status ByteFile::Read(std::uint64_t offset, std::size_t count, void* out) const {
    if (offset > size_ || count > size_ - offset)
        return shown_name(path_) + " ends at byte " + std::to_string(size_) + ", before byte " +
               std::to_string(offset + count);
    if (count == 0) return {};
    auto* bytes = static_cast<unsigned char*>(out);
    while (count > 0) {
        const ssize_t got = pread(descriptor_, bytes, count, static_cast<off_t>(offset));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0)
            return "cannot read " + shown_name(path_) + ": " +
                   (got < 0 ? std::strerror(errno)
                            : "the file became shorter while it was read (at byte " +
                                  std::to_string(offset) + " of the " + std::to_string(size_) +
                                  " it had when opened; is it still being written?)");
        bytes += got, count -= static_cast<std::size_t>(got),
            offset += static_cast<std::uint64_t>(got);
    }
    return {};
}

} // namespace pelab
