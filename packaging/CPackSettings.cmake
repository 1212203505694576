# CPack: the Debian package and the source tarball (`./dev package`, or in a build folder:
# `cpack -G DEB` and `cpack --config CPackSourceConfig.cmake -G TGZ`).
# Included last from the top-level CMakeLists.txt. The version is project(VERSION), nowhere else.
set(CPACK_VERBATIM_VARIABLES ON)  # the values below reach CPack exactly as written
set(CPACK_PACKAGE_NAME layout-planner)
set(CPACK_PACKAGE_VENDOR "The Layout Planner developers")
set(CPACK_PACKAGE_CONTACT "Layout Planner developers <layout-planner@example.invalid>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${PROJECT_HOMEPAGE_URL}")
set(CPACK_PACKAGE_CHECKSUM SHA256)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR})

# Debian package: layout-planner_<version>_<arch>.deb, installed under /usr (the DEB default prefix;
# setting CPACK_PACKAGING_INSTALL_PREFIX would also move the source tarball under usr/).
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${PROJECT_HOMEPAGE_URL}")
# The synopsis is CPACK_PACKAGE_DESCRIPTION_SUMMARY; this is the extended description.
set(CPACK_PACKAGE_DESCRIPTION
    "Layout Planner estimates what a training job of a large language model needs
and achieves on a GPU cluster under a given layout (tensor, pipeline, data,
context and expert parallelism, micro batch, ZeRO stage, recomputation):
memory per GPU and pipeline stage, the step-time breakdown, MFU and HFU,
throughput and training time, with diagnostics that say what to change.
Every figure explains its formula and sources.

This package holds the desktop application (layout-planner, Qt 6) and the
command-line tool (layout-planner-cli).")
# dpkg-shlibdeps (dpkg-dev) derives Depends from the libraries the executables link (Qt 6, libstdc++).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Qt loads the SVG icon engine and image plugin (libqt6svg6: the window's icons are SVG) and the
# Wayland platform as plugins, which dpkg-shlibdeps cannot see; these are added to what it finds.
if(LP_BUILD_GUI)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6svg6 (>= 6.4)")
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-wayland")
endif()

# Source tarball: layout-planner-<version>.tar.gz, everything but build output and VCS data.
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_PACKAGE_FILE_NAME "layout-planner-${PROJECT_VERSION}")
string(REPLACE "." "\\." lp_src_re "${PROJECT_SOURCE_DIR}")
string(REPLACE "+" "\\+" lp_src_re "${lp_src_re}")
set(CPACK_SOURCE_IGNORE_FILES
    "^${lp_src_re}/build[^/]*/"
    "^${lp_src_re}/out/"
    "^${lp_src_re}/Testing/"
    "^${lp_src_re}/\\.git/"
    "^${lp_src_re}/\\.git$"
    "^${lp_src_re}/\\.cache/"
    "/compile_commands\\.json$"
    "\\.user$"
    "\\.swp$"
    "~$")

include(CPack)
