/**
 * Making data nodes over REST, so that a client can build a process's inputs: values from JSON
 * (the forms a launch takes inline) and files from uploads, streamed into the object store in
 * bounded memory whatever their size.
 */
package dev.cairn.api.data;
