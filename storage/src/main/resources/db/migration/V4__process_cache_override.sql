-- A launch may turn caching on or off for itself, whatever the policy says (null: the policy decides).
ALTER TABLE process ADD COLUMN use_cache boolean;
