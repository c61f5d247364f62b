/** The user's profiles (server URLs and their tokens) and the files the commands read ({@code --config}). */
package dev.cairn.cli.config;
