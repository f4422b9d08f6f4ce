-- placeholder, replaced by the store work of issue #2
CREATE TABLE IF NOT EXISTS placeholder (id INTEGER PRIMARY KEY);
