# cmake -DOUTPUT=FILE -DARCHIVES="a.a;b.a" -P HashArchives.cmake
# Writes the SHA-256 of the archives' hashes, in order, as a C string
# literal.
set(hashes "")
foreach(archive IN LISTS ARCHIVES)
  file(SHA256 "${archive}" hash)
  string(APPEND hashes "${hash}\n")
endforeach()
string(SHA256 id "${hashes}")
file(WRITE "${OUTPUT}" "\"${id}\"\n")
