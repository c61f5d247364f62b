/**
 * The web view: pages rendered by the server under {@code /ui} for people with a browser, signed in
 * with a token kept in a session ({@code api.security.PageSessions}). The pages call the same
 * services as the REST API and hold no SQL; live parts follow the API's event stream. Templates are
 * under {@code templates/pages}, scripts and styles under {@code static/ui/assets}, libraries are
 * WebJars. {@code api.pages.graph} lays the provenance graph out on the server.
 */
package dev.cairn.api.pages;
