/**
 * The Cairn server: one Spring Boot application whose roles, from configuration, are the REST API,
 * a worker that runs processes, or both. Storage and engine stay free of Spring; the packages
 * below wire them ({@code config}), start the embedded services ({@code embedded}), guard the API
 * ({@code security}), answer errors and pages ({@code web}), and serve one resource each.
 */
package dev.cairn.api;
