/**
 * {@code /api/v1/function-runs}: functions a client runs itself (a scientist's Python functions),
 * recorded as calcfunctions with their inputs, outputs and source, and served from the cache like
 * any calculation.
 */
package dev.cairn.api.functions;
