// A small writer over HDF5's C API for the output layer: datasets of numbers and texts, text attributes,
// groups, no modification times (the same content gives the same bytes), written atomically.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <hdf5.h>

namespace zs::output {

/// An HDF5 identifier closed by `close` when it goes out of scope. Throws std::runtime_error when the
/// identifier is invalid (HDF5 could not create what `what` names).
class Hdf5Handle {
 public:
  Hdf5Handle(hid_t id, herr_t (*close)(hid_t), const char* what);
  ~Hdf5Handle();
  Hdf5Handle(Hdf5Handle&& other) noexcept : id_(other.id_), close_(other.close_) { other.id_ = -1; }
  Hdf5Handle(const Hdf5Handle&) = delete;
  Hdf5Handle& operator=(const Hdf5Handle&) = delete;
  operator hid_t() const { return id_; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

/// Throws std::runtime_error naming `what` when `status` is an HDF5 error.
void hdf5_check(herr_t status, const char* what);
/// A variable-length UTF-8 string type.
Hdf5Handle hdf5_text_type();
/// Dataset creation properties without modification times.
Hdf5Handle hdf5_no_times();

void write_hdf5_text_attribute(hid_t at, const char* name, const std::string& value);
/// A one-dimensional dataset of UTF-8 strings.
void write_hdf5_texts(hid_t at, const char* name, const std::vector<std::string>& texts);
/// A dataset of float64 of shape `dims` (row-major `values`), deflate-compressed in chunks when large.
void write_hdf5_reals(hid_t at, const char* name, const std::vector<hsize_t>& dims,
                      const std::vector<double>& values);
/// A one-dimensional dataset of int64.
void write_hdf5_integers(hid_t at, const char* name, const std::vector<int64_t>& values);
/// A group under `at`.
Hdf5Handle create_hdf5_group(hid_t at, const char* name);

/// Creates `path` through a temporary file beside it that `fill` writes and a rename: a reader sees the
/// old file or the complete new one. HDF5's own error printing is off; errors are exceptions.
void write_hdf5_atomically(const std::string& path, const std::function<void(hid_t file)>& fill);

}  // namespace zs::output
