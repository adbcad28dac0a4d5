// Chakra's file framing: protobuf records, each preceded by its length as a varint. Internal to the chakra
// layer and its tests (it includes protobuf, which the layer links privately).
#pragma once

#include <cstddef>
#include <string>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/message_lite.h>

namespace zs::chakra {

/// Appends `message` to `out` as one record: its byte count as a base-128 varint, then its bytes.
void append_record(const google::protobuf::MessageLite& message, std::string& out);

/// Reads the records of one file's bytes in order.
class RecordReader {
 public:
  /// `bytes` must outlive the reader; `file` names it in errors.
  RecordReader(const std::string& bytes, std::string file);

  /// Parses the next record into `message`; false at the end of the file. A truncated length, a record
  /// running past the end of the file or bytes that do not parse are a core::InputError naming the
  /// file and `path` (the record's JSON-style path, e.g. "/nodes/12").
  bool next(google::protobuf::MessageLite& message, const std::string& path);

 private:
  google::protobuf::io::ArrayInputStream array_;
  google::protobuf::io::CodedInputStream coded_;
  std::string file_;
  size_t size_;
};

}  // namespace zs::chakra
