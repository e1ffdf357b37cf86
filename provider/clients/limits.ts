/**
 * Bounds of what the providers and clients send, in one place. Each is generous for real use and stops input that
 * can only fail later, and worse: a server that refuses a request line too long with a bare 431, a timer that cannot
 * hold the deadline, an error message too long for the provider host to deliver.
 */

/** Ids and names: bundle ids, application names, folder names (a Jenkins item name is a file name: 255 bytes). */
export const MAX_ID_LENGTH = 255;

/** A controller's or folder's full path (`folder1/controller1`). */
export const MAX_PATH_LENGTH = 1024;

/**
 * The encoded query string of one request (`bundleId=...&regex=...`). Jetty, which serves Jenkins, refuses a
 * request whose header block passes 8 KiB (431); the request line and the other headers take part of that.
 */
export const MAX_QUERY_LENGTH = 6000;

/**
 * An item URL read from the operations center (the Controllers view's `url`), for the full path it names: longer
 * than the 8 KiB header block Jetty accepts (above), no request could reach the item. The spec bounds none.
 */
export const MAX_ITEM_URL_LENGTH = 8 * 1024;

/** Items of a list input (controllers, bundles, triggers). */
export const MAX_LIST_LENGTH = 1000;

/** Text inputs sent as a body (an items.yaml). */
export const MAX_TEXT_BYTES = 1024 * 1024;

/** Check-out timeout: a day at most (the operations center's own default is 600 s). */
export const MAX_TIMEOUT_SECONDS = 86_400;

/**
 * Anchors (`&name`) and aliases (`*name`) of one YAML text input (an items.yaml), each: the YAML reader resolves an
 * alias by searching the document, so 20,000 of them took 10 s. Counted in one pass of the lexer before parsing.
 * Far above real use (the CasC plugin's own bound, CASC_YAML_MAX_ALIASES, is 50 aliases to collections).
 */
export const MAX_YAML_ALIASES = 1000;
