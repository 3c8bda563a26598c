# The Debian package, built by `cpack -G DEB` in a build folder
# (scripts/package). Included from packaging/CMakeLists.txt; what lintian
# still says about the package, and why, is in packaging/README.md.

set(CPACK_PACKAGE_NAME flightdeck)
set(CPACK_PACKAGE_VENDOR "The Flightdeck developers")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "operations console for Kubernikus klusters")
set(CPACK_PACKAGE_CONTACT "The Flightdeck developers <flightdeck@flightdeck.invalid>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_VERBATIM_VARIABLES ON) # the description's quotes, exactly
# Debian wants no debugging symbols in the installed programs: stripped as
# dh_strip does (packaging/strip.cmake); the build folder keeps them.
set(CPACK_PRE_BUILD_SCRIPTS "${CMAKE_CURRENT_LIST_DIR}/strip.cmake")

set(CPACK_DEBIAN_PACKAGE_NAME flightdeck)
# The Debian revision: the first packaging of the upstream version. It makes
# the package non-native, so that its changelog is changelog.Debian.gz.
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(FLIGHTDECK_DEB_VERSION "${PROJECT_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # flightdeck_0.1.0-1_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
# The libraries the programs link against, found by dpkg-shlibdeps (dpkg-dev).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The keychain (QtKeychain) loads libsecret at run time and speaks to a Secret
# Service over D-Bus: without them the console and flightdeck-cli work, but
# keep no secret that no file holds (`flightdeck-cli credentials status`
# says so).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libsecret-1-0, gnome-keyring")
# The clients one compares Flightdeck's view with, and Qt's Wayland platform.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-openstackclient, kubernetes-client, qt6-wayland")
# The synopsis is CPACK_PACKAGE_DESCRIPTION_SUMMARY; CPack indents every line
# of this extended description and writes an empty one as " ."; lines
# indented further are shown as they are.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Flightdeck is the operations console for the on-call engineers of
Kubernikus klusters: Kubernetes clusters whose nodes are OpenStack
instances behind one Neutron router. It joins the OpenStack and the
Kubernetes views of every node, shows what is broken with its evidence,
and repairs each failure through a previewed, confirmed, verified and
audited action.

It finds instances that never registered as nodes or are in ERROR,
instances cut off from the kluster's security group, missing pod-network
rules, duplicate, stale, orphaned and missing routes on the shared
router, its route limit, nodes that are not Ready or have no network, and
nodes whose instance is gone.

The package holds three programs:
 - flightdeck: the desktop console (Qt), with a built-in simulated cloud
   (flightdeck --demo);
 - flightdeck-cli: the command-line twin for scripts and monitoring
   systems (check, snapshot, klusters, repair, audit, credentials);
 - flightdeck-sim: the simulated OpenStack and Kubernikus cloud on its own.
Example snapshots are in /usr/share/doc/flightdeck/examples.")

include(CPack)
