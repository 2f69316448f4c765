INSERT INTO users VALUES (1, 'Ada'), (2, 'Grace'), (3, 'Edsger');
