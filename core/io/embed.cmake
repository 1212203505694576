# Writes OUT, a C++ source that defines lp::core::embedded::<NAME>() returning the text of each
# JSON file in IN_FILES (semicolon-separated NAME=PATH pairs). Run with cmake -P at build time.
set(content "// Generated from resources/presets by core/io/embed.cmake. Do not edit.\n#include <string_view>\nnamespace lp::core::embedded {\n")
foreach(pair IN LISTS IN_FILES)
  string(REPLACE "=" ";" parts "${pair}")
  list(GET parts 0 name)
  list(GET parts 1 path)
  file(READ "${path}" text)
  string(APPEND content "std::string_view ${name}() {\n    static constexpr char text[] = R\"LPJSON(${text})LPJSON\";\n    return {text, sizeof(text) - 1};\n}\n")
endforeach()
string(APPEND content "} // namespace lp::core::embedded\n")
file(WRITE "${OUT}.tmp" "${content}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
