// Length-prefixed protobuf records, as Chakra's encodeMessage writes them.
#include "chakra/et_records.hpp"

#include <climits>

#include <google/protobuf/stubs/logging.h>

#include "core/input_error.hpp"

namespace zs::chakra {

void append_record(const google::protobuf::MessageLite& message, std::string& out) {
  const size_t size = message.ByteSizeLong();
  uint8_t prefix[10];
  const uint8_t* end =
      google::protobuf::io::CodedOutputStream::WriteVarint32ToArray(static_cast<uint32_t>(size), prefix);
  out.append(reinterpret_cast<const char*>(prefix), static_cast<size_t>(end - prefix));
  const size_t at = out.size();
  out.resize(at + size);
  message.SerializeWithCachedSizesToArray(reinterpret_cast<uint8_t*>(out.data() + at));
}

RecordReader::RecordReader(const std::string& bytes, std::string file)
    : array_(bytes.data(), static_cast<int>(bytes.size() > INT_MAX ? INT_MAX : bytes.size())),
      coded_(&array_),
      file_(std::move(file)),
      size_(bytes.size()) {
  if (bytes.size() > INT_MAX)
    throw core::InputError(file_, "", "Chakra files over 2 GiB are not supported (protobuf's limit)");
  coded_.SetTotalBytesLimit(INT_MAX);
}

bool RecordReader::next(google::protobuf::MessageLite& message, const std::string& path) {
  if (static_cast<size_t>(coded_.CurrentPosition()) >= size_) return false;
  uint32_t length = 0;
  if (!coded_.ReadVarint32(&length))
    throw core::InputError(file_, path, "truncated record length (not a Chakra .et file?)");
  if (length > size_ - static_cast<size_t>(coded_.CurrentPosition()))
    throw core::InputError(file_, path,
                           "a record of " + std::to_string(length) + " bytes runs past the end of the file");
  const auto limit = coded_.PushLimit(static_cast<int>(length));
  // libprotobuf logs what it refuses (invalid UTF-8 in a string) to stderr; our one error line says it.
  const google::protobuf::LogSilencer quiet;
  const bool ok = message.ParseFromCodedStream(&coded_) && coded_.ConsumedEntireMessage();
  coded_.PopLimit(limit);
  if (!ok) throw core::InputError(file_, path, "record does not parse as a Chakra " + message.GetTypeName());
  return true;
}

}  // namespace zs::chakra
