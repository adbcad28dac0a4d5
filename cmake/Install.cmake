# `cmake --install`: the libraries a policy author builds against (core, hw, topology, workload, policy),
# their public headers and the CMake package (find_package(zettasim) gives zettasim::policy and the rest).

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(zs_installed_layers core hw topology workload policy)
set(zs_package_dir ${CMAKE_INSTALL_LIBDIR}/cmake/zettasim)

foreach(layer IN LISTS zs_installed_layers)
  set_target_properties(zs_${layer} PROPERTIES EXPORT_NAME ${layer})
  add_library(zettasim::${layer} ALIAS zs_${layer})  # the examples build in this tree under the same names
endforeach()
list(TRANSFORM zs_installed_layers PREPEND zs_ OUTPUT_VARIABLE zs_installed_targets)
install(TARGETS ${zs_installed_targets} EXPORT zettasimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}/zettasim
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/zettasim)

# The public headers: policy/plugin_api.hpp, the policy interfaces and built-ins, and what they include
# (include paths stay "policy/...", "core/..." under include/zettasim/).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/policy DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/zettasim
        FILES_MATCHING PATTERN "*.hpp")
set(zs_public_headers
    core/choice_names.hpp core/dtype.hpp core/file_kind.hpp core/file_source.hpp core/input_error.hpp core/json_object.hpp core/param_reader.hpp
    core/param_table.hpp core/registry.hpp core/units.hpp
    hw/collective_protocol.hpp hw/compute_unit_model.hpp hw/link_model.hpp hw/memory_pool_model.hpp hw/optical_switch_model.hpp hw/part_price.hpp
    hw/switch_model.hpp
    topology/machine.hpp topology/router.hpp topology/topology.hpp topology/unit_domains.hpp
    workload/communicator_groups.hpp workload/expert_routing.hpp workload/mesh.hpp workload/trace.hpp)
foreach(header IN LISTS zs_public_headers)
  get_filename_component(folder ${header} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/src/${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/zettasim/${folder})
endforeach()
install(FILES ${PROJECT_BINARY_DIR}/src/core/generated/core/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/zettasim/core)

# The shipped files, under share/zettasim in the layout of the source tree so that the scenarios' relative
# paths resolve there: scenarios (with sweeps, validation tables and planner scenarios), the machines and
# topologies they name, the model and workload files. Python's Scenario(machine=NAME, model=NAME) finds
# them by name there too.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/scenarios ${PROJECT_SOURCE_DIR}/models ${PROJECT_SOURCE_DIR}/topologies
                  ${PROJECT_SOURCE_DIR}/workloads
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zettasim)

install(EXPORT zettasimTargets NAMESPACE zettasim:: DESTINATION ${zs_package_dir})
configure_package_config_file(cmake/zettasimConfig.cmake.in ${PROJECT_BINARY_DIR}/zettasimConfig.cmake
                              INSTALL_DESTINATION ${zs_package_dir})
# A plugin runs only in the zettasim it was built against (ZETTASIM_PLUGIN_ABI and the version are checked
# when it loads), so the package accepts only its exact version.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/zettasimConfigVersion.cmake
                                 COMPATIBILITY ExactVersion)
install(FILES ${PROJECT_BINARY_DIR}/zettasimConfig.cmake ${PROJECT_BINARY_DIR}/zettasimConfigVersion.cmake
        DESTINATION ${zs_package_dir})
