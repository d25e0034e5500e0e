-- Run by the migration runner before migration.sql: every row returned is a clash the migration
-- refuses to guess about (which account keeps the name?). Resolve them, then start again.
SELECT 'username' AS field, lower("username") AS "key", group_concat("id" || ' (' || "username" || ')', ', ') AS "rows"
FROM "User" GROUP BY lower("username") HAVING count(*) > 1
UNION ALL
SELECT 'email' AS field, lower("email") AS "key", group_concat("id" || ' (' || "email" || ')', ', ') AS "rows"
FROM "User" GROUP BY lower("email") HAVING count(*) > 1
ORDER BY 1, 2;
