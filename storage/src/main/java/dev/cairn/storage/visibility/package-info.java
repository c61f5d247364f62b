/**
 * What marks Cairn's internals: the {@link dev.cairn.storage.visibility.Internal} annotation for public
 * members that only storage and engine may use. Whole internal classes live in packages named
 * {@code internal}.
 */
package dev.cairn.storage.visibility;
