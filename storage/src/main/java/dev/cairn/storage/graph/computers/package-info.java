/** Computers that calculations run on, and each user's settings for them (authinfo). */
package dev.cairn.storage.graph.computers;
