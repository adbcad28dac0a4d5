// The ELF checks done before a plugin is handed to dlopen.
#include "plugin/shared_library_file.hpp"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <vector>

namespace zs::plugin {
namespace {

/// `count` bytes at `offset` of `in`, or an empty vector when the file ends first.
std::vector<char> read_at(std::ifstream& in, uint64_t offset, uint64_t count) {
  std::vector<char> bytes(count);
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(bytes.data(), static_cast<std::streamsize>(count));
  return in ? bytes : std::vector<char>();
}

}  // namespace

std::optional<std::string> shared_library_problem(const std::string& file) {
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in) return "cannot be read";
  const uint64_t size = static_cast<uint64_t>(in.tellg());
  Elf64_Ehdr header;
  if (size < sizeof header) return "too short for an ELF header (" + std::to_string(size) + " B)";
  const auto head = read_at(in, 0, sizeof header);
  if (head.empty()) return "cannot be read";
  std::memcpy(&header, head.data(), sizeof header);
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) return "not an ELF file";
  if (header.e_ident[EI_CLASS] != ELFCLASS64) return "not a 64-bit ELF file";
  const bool little = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
  if (header.e_ident[EI_DATA] != (little ? ELFDATA2LSB : ELFDATA2MSB))
    return "an ELF file of the other byte order";
  if (header.e_type != ET_DYN) return "not a shared library (ELF type " + std::to_string(header.e_type) + ")";
  if (header.e_phentsize != sizeof(Elf64_Phdr)) return "an ELF file with a malformed program header table";
  const uint64_t table_end = header.e_phoff + uint64_t(header.e_phnum) * sizeof(Elf64_Phdr);
  if (header.e_phoff > size || table_end > size)
    return "truncated: its program header table ends at byte " + std::to_string(table_end) + " of " +
           std::to_string(size);
  const uint64_t sections_end = header.e_shoff + uint64_t(header.e_shnum) * header.e_shentsize;
  if (header.e_shoff > size || sections_end > size)
    return "truncated: its section header table ends at byte " + std::to_string(sections_end) + " of " +
           std::to_string(size);
  const auto table = read_at(in, header.e_phoff, table_end - header.e_phoff);
  if (table.empty() && header.e_phnum > 0) return "cannot be read";
  for (uint16_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    std::memcpy(&segment, table.data() + i * sizeof segment, sizeof segment);
    if (segment.p_type != PT_LOAD) continue;
    if (segment.p_offset > size || segment.p_filesz > size - segment.p_offset)
      return "truncated: a loadable segment ends at byte " +
             std::to_string(segment.p_offset + segment.p_filesz) + " of " + std::to_string(size);
  }
  return std::nullopt;
}

}  // namespace zs::plugin
