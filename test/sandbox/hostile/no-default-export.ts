// hostile: export something that is not a memo program
// expect: interface /default export is number, not an object made by defineMemo/
export default 42;
