/**
 * The error families shared by storage, engine and the server: {@link dev.cairn.storage.errors.CairnException}
 * and its four kinds (not found, invalid input, conflict, unavailable). Each module's own exceptions
 * extend one of them and carry a message naming what was wrong.
 */
package dev.cairn.storage.errors;
