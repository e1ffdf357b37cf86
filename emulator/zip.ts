// Zips come from the provider's bundle toolkit: deterministic archives, one unzip with one set of entry rules.
export { type FileMap } from "../provider/bundle/files";
export { NotAZipError, unzipFiles as unzip, zipFiles } from "../provider/bundle/zip";
