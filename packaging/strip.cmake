# Run by CPack (CPACK_PRE_BUILD_SCRIPTS) on the staged tree, before the .deb
# is made of it: strips the programs as Debian's dh_strip does, their
# debugging symbols and the .comment and .note sections (lintian:
# unstripped-binary-or-object, binary-has-unneeded-section). The build
# folder keeps the unstripped programs.
find_program(strip NAMES strip REQUIRED)
file(GLOB programs "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/usr/bin/*")
if(NOT programs)
    message(FATAL_ERROR "strip.cmake: no programs in ${CPACK_TEMPORARY_INSTALL_DIRECTORY}/usr/bin")
endif()
foreach(program IN LISTS programs)
    execute_process(COMMAND "${strip}" --remove-section=.comment --remove-section=.note "${program}"
        COMMAND_ERROR_IS_FATAL ANY)
endforeach()
