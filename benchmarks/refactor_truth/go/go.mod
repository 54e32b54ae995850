module refactortruth

go 1.19
