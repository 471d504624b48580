module koth/example-bots/coup_go

go 1.23
