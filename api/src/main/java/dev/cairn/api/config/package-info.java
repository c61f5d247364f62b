/**
 * The server's settings ({@link dev.cairn.api.config.CairnProperties}, every one with an environment
 * form) and the configuration classes that build storage and engine objects from them, as plain
 * objects: Spring knows them only as beans.
 */
package dev.cairn.api.config;
